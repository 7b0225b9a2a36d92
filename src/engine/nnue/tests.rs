use super::*;
use crate::engine::eval::{random_positions, test_rng};
use crate::rules::moves::{MoveKind, MoveList};
use crate::rules::position::accumulator::HAND_INPUTS;
use crate::rules::variant::{all_variants, variant_id};

/// A network of small random weights for `def` (hidden width `width`).
pub(super) fn random_net(def: &VariantDef, width: usize, seed: u64) -> NetFile {
    let mut next = test_rng(seed);
    let types = def.pieces.len();
    let squares = def.geometry.squares();
    let inputs = 2 * types * (squares + HAND_INPUTS);
    let mut small = |range: usize, shift: i32| next(range) as i16 - shift as i16;
    NetFile {
        games: vec![def.name.to_string()],
        types,
        squares,
        hand: HAND_INPUTS,
        width,
        kings: None,
        columns: (0..inputs * width).map(|_| small(121, 60)).collect(),
        bias: (0..width).map(|_| small(201, 50)).collect(),
        activation: Activation::ClippedRelu,
        buckets: 1,
        divisor: 1,
        out_weights: (0..2 * width).map(|_| small(241, 120)).collect(),
        out_bias: vec![1234],
        output_scale: DEFAULT_OUTPUT_SCALE,
        material_scale: None,
    }
}

pub(super) fn def_of(name: &str) -> &'static VariantDef {
    &all_variants()[variant_id(name).unwrap()]
}

/// Plays random games of `def`, favouring the rare kinds of move, and checks after
/// every make and unmake that the kept accumulators equal a fresh computation.
/// Returns the move kinds played.
fn check_accumulators<B: BoardWidth>(def: &VariantDef, seed: u64) -> Vec<MoveKind> {
    check_accumulators_of::<B>(def, &random_net(def, 16, seed), seed).0
}

/// [`check_accumulators`] with the net `file`; returns the move kinds played and how
/// many moves took a king to another bucket.
pub(super) fn check_accumulators_of<B: BoardWidth>(
    def: &VariantDef,
    file: &NetFile,
    seed: u64,
) -> (Vec<MoveKind>, usize) {
    let net = Network::for_game(file, def, "test").unwrap();
    let rules = B::rules(variant_id(def.name).unwrap());
    let mut next = test_rng(seed + 1);
    let mut kinds = Vec::new();
    let mut bucket_changes = 0;
    for _ in 0..12 {
        let mut pos = Position::<B>::from_fen(rules, def.start_fen).unwrap();
        pos.set_input_columns(Some(net.input_columns()));
        let mut played = Vec::new();
        for _ in 0..160 {
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            let moves = list.as_slice();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let rare: Vec<_> = moves
                .iter()
                .filter(|m| !matches!(m.kind(), MoveKind::Normal | MoveKind::Initial))
                .collect();
            let m = if !rare.is_empty() && next(2) == 0 {
                *rare[next(rare.len())]
            } else {
                moves[next(moves.len())]
            };
            kinds.push(m.kind());
            let before = Color::iter().map(|v| net.columns.bucket_of(&pos, v));
            let before: Vec<usize> = before.collect();
            pos.make(m);
            played.push(m);
            let after = Color::iter().map(|v| net.columns.bucket_of(&pos, v));
            bucket_changes += usize::from(after.collect::<Vec<_>>() != before);
            // The sums wait until asked for: sometimes several plies go by first, and
            // a copy of the position works them out for itself.
            assert!(pos.accumulators().is_none(), "{} after {m:?}", def.name);
            if next(4) == 0 {
                let mut copy = pos.clone();
                copy.update_accumulators();
                let (_, acc) = copy.accumulators().unwrap();
                assert_eq!(acc, &net.columns.refresh(&pos), "{} copy", def.name);
            }
            if next(3) != 0 {
                pos.update_accumulators();
                let (_, acc) = pos.accumulators().unwrap();
                assert_eq!(acc, &net.columns.refresh(&pos), "{} after {m:?}", def.name);
            }
        }
        while let Some(m) = played.pop() {
            pos.unmake(m);
            pos.update_accumulators();
            let (_, acc) = pos.accumulators().unwrap();
            assert_eq!(
                acc,
                &net.columns.refresh(&pos),
                "{} undoing {m:?}",
                def.name
            );
        }
    }
    (kinds, bucket_changes)
}

#[test]
fn kept_accumulators_equal_a_fresh_sum_in_every_variant() {
    let mut kinds = Vec::new();
    for (i, def) in all_variants().iter().enumerate() {
        let seed = 100 + i as u64;
        if def.geometry.squares() <= 64 {
            kinds.extend(check_accumulators::<u64>(def, seed));
        } else {
            kinds.extend(check_accumulators::<u128>(def, seed));
        }
    }
    // The games between them exercise every way a square or a hand changes.
    for k in [
        MoveKind::Drop,
        MoveKind::Gate,
        MoveKind::Promotion,
        MoveKind::Castle,
        MoveKind::EnPassant,
    ] {
        assert!(kinds.contains(&k), "no {k:?} was played");
    }
}

#[test]
fn pool_promotions_change_the_hand_inputs() {
    // Great Shatranj: a pawn promotes to a captured piece from its pool.
    let def = def_of("great");
    let net = Network::for_game(&random_net(def, 16, 3), def, "test").unwrap();
    let rules = <u128 as BoardWidth>::rules(variant_id("great").unwrap());
    let fen = "6k3/3P5p/10/10/10/10/10/K9[G] w - - 0 1";
    let mut pos = Position::<u128>::from_fen(rules, fen).unwrap();
    pos.set_input_columns(Some(net.input_columns()));
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let general = def.pieces.iter().position(|p| p.letter == 'G').unwrap();
    let promo = list
        .as_slice()
        .iter()
        .copied()
        .find(|m| m.kind() == MoveKind::Promotion && m.piece() == general)
        .expect("a promotion to the general from the pool");
    assert_eq!(pos.in_hand(Color::White, general), 1);
    pos.make(promo);
    assert_eq!(pos.in_hand(Color::White, general), 0);
    pos.update_accumulators();
    assert_eq!(pos.accumulators().unwrap().1, &net.columns.refresh(&pos));
    pos.unmake(promo);
    assert_eq!(pos.accumulators().unwrap().1, &net.columns.refresh(&pos));
}

/// The integer evaluation against the float reference on random positions.
fn check_against_float<B: BoardWidth>(def: &VariantDef, seed: u64) {
    let net = Network::for_game(&random_net(def, 32, seed), def, "test").unwrap();
    for mut pos in random_positions::<B>(def.name, 40, seed) {
        let fresh = net.evaluate(&pos);
        pos.set_input_columns(Some(net.input_columns()));
        let kept = net.evaluate(&pos);
        assert_eq!(kept, fresh, "{}", def.name);
        assert_near_the_float_reference(&net, &pos, def.name);
    }
}

/// The integer evaluation of `pos` within a centipawn of the float reference (one more times
/// the largest factor for a net with a material scale): the integer sums are exact; only the
/// divisions truncate.
pub(super) fn assert_near_the_float_reference<B: BoardWidth>(
    net: &Network,
    pos: &Position<B>,
    game: &str,
) {
    // One truncating division; with a material-scale table a second, after the first's
    // error was multiplied by the factor (docs/nnue.md).
    let largest = net.material_scale.iter().max().copied().unwrap_or(0);
    let tolerance = 1.0 + largest as f64 / 1024.0;
    let (int, float) = (net.evaluate(pos), net.evaluate_float(pos));
    assert!(
        (int as f64 - float).abs() < tolerance + 1e-6,
        "{game}: integer {int}, float {float}"
    );
}

#[test]
fn quantised_evaluation_equals_the_float_reference_within_a_centipawn() {
    for (i, def) in all_variants().iter().enumerate() {
        if def.geometry.squares() <= 64 {
            check_against_float::<u64>(def, 7 + i as u64);
        } else {
            check_against_float::<u128>(def, 7 + i as u64);
        }
    }
}

#[test]
fn vector_and_plain_arithmetic_agree() {
    let mut next = test_rng(9);
    let a: Vec<i16> = (0..256).map(|_| next(800) as i16 - 300).collect();
    let w: Vec<i16> = (0..256).map(|_| next(255) as i16 - 127).collect();
    let plain = simd::dot_clipped_plain::<{ QA as i16 }>(&a, &w);
    assert_eq!(simd::dot_clipped::<{ QA as i16 }>(&a, &w), plain);
    let by_hand: i32 = a
        .iter()
        .zip(&w)
        .map(|(&x, &y)| x.clamp(0, 255) as i32 * y as i32)
        .sum();
    assert_eq!(plain, by_hand);
    // The accumulator updates, with wrap-around.
    use crate::simd::{add_column, add_column_plain, sub_column, sub_column_plain};
    let mut big: Vec<i16> = (0..256).map(|i: i32| (i * 200 - 25_000) as i16).collect();
    for op in 0..4 {
        let (mut x, mut y) = (big.clone(), big.clone());
        if op % 2 == 0 {
            add_column(&mut x, &a);
            add_column_plain(&mut y, &a);
        } else {
            sub_column(&mut x, &w);
            sub_column_plain(&mut y, &w);
        }
        assert_eq!(x, y);
        big = x;
    }
}

#[test]
fn net_files_round_trip() {
    let file = random_net(def_of("historia"), 8, 4);
    let bytes = file.to_bytes();
    assert_eq!(NetFile::parse(&bytes).unwrap(), file);
    let expected = 8 + 4 + 4 + "historia".len() + 16 + 2 * (file.columns.len() + 3 * 8) + 4;
    assert_eq!(bytes.len(), expected);
}

#[test]
fn broken_net_files_are_refused_with_the_reason() {
    let def = def_of("normal");
    let file = random_net(def, 8, 5);
    let bytes = file.to_bytes();
    let err = |b: &[u8]| NetFile::parse(b).unwrap_err();
    assert_eq!(err(b"hello"), NetError::NotANet);
    assert!(matches!(
        err(&bytes[..bytes.len() - 3]),
        NetError::Truncated { .. }
    ));
    assert!(matches!(err(&bytes[..20]), NetError::Truncated { .. }));
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(err(&longer), NetError::TrailingBytes(1));
    let mut version = bytes.clone();
    version[8] = 9;
    assert_eq!(err(&version), NetError::Version(9));
    let mut width = bytes.clone();
    let at = 8 + 4 + 4 + "normal".len() + 12;
    width[at] = 7;
    assert!(matches!(err(&width), NetError::BadHeader(_)));
    // A good file for another game.
    let shatar = def_of("shatar");
    match Network::for_game(&file, shatar, "x") {
        Err(NetError::WrongGame { game, games }) => {
            assert_eq!(game, "shatar");
            assert_eq!(games, vec!["normal".to_string()]);
        }
        other => panic!("{other:?}"),
    }
    // Named for a game whose board it does not fit.
    let mut renamed = file.clone();
    renamed.games = vec!["great".into()];
    assert!(matches!(
        Network::for_game(&renamed, def_of("great"), "x"),
        Err(NetError::WrongShape(_))
    ));
}

#[test]
fn a_missing_file_is_named_in_the_error() {
    let e = Network::load(Path::new("/nonexistent/x.nnue"), def_of("normal")).unwrap_err();
    assert!(
        e.contains("/nonexistent/x.nnue") && e.contains("cannot read"),
        "{e}"
    );
}

#[test]
fn every_built_in_net_is_good_for_the_games_it_names() {
    for (name, checked) in built_in::files() {
        let file = checked.unwrap_or_else(|e| panic!("eval-tables/nets/{name}: {e}"));
        for game in &file.games {
            let def = def_of(game);
            assert!(
                built_in::for_game(def).is_some(),
                "{name}: no net for {game}"
            );
        }
    }
}

/// A built-in net on random positions of one of its games: integer within a centipawn (two
/// with a material scale) of the float reference; and, being trained, it counts a missing queen as a loss.
fn check_built_in<B: BoardWidth>(def: &VariantDef, net: &Network) {
    for pos in random_positions::<B>(def.name, 60, 5) {
        assert_near_the_float_reference(net, &pos, def.name);
    }
    let rules = B::rules(variant_id(def.name).unwrap());
    let start = Position::<B>::from_fen(rules, def.start_fen).unwrap();
    let board = def.start_fen.split(' ').next().unwrap();
    let queen = def.pieces.iter().position(|p| p.letter == 'Q');
    // Games with a hand in the FEN (`[...]`) are left to the random positions.
    if let (Some(queen), false) = (queen, board.contains('[')) {
        // Black's queens taken off the start position: White (to move) is far ahead.
        let black_queen = def.pieces[queen].letter.to_ascii_lowercase();
        let fen = format!("{} w - - 0 1", board.replace(black_queen, "1"));
        let short = Position::<B>::from_fen(rules, &fen).expect("the start without the queen");
        let (even, ahead) = (net.evaluate(&start), net.evaluate(&short));
        assert!(ahead > even + 300, "{}: {even} -> {ahead}", def.name);
    }
}

#[test]
fn built_in_nets_match_their_float_reference_and_count_material() {
    for (_, checked) in built_in::files() {
        let file = checked.unwrap();
        for game in &file.games {
            let def = def_of(game);
            let net = built_in::for_game(def).unwrap();
            if def.geometry.squares() <= 64 {
                check_built_in::<u64>(def, &net);
            } else {
                check_built_in::<u128>(def, &net);
            }
        }
    }
}

#[test]
fn the_net_argument_chooses_a_file_or_none() {
    assert_eq!(NetChoice::from_arg("off"), NetChoice::Off);
    assert_eq!(NetChoice::from_arg("none"), NetChoice::Off);
    assert_eq!(
        NetChoice::from_arg("a.nnue"),
        NetChoice::File(PathBuf::from("a.nnue"))
    );
    assert!(NetChoice::Off
        .network_for(def_of("normal"))
        .unwrap()
        .is_none());
    let missing = NetChoice::File(PathBuf::from("/nonexistent/n.nnue"));
    assert!(missing.network_for(def_of("normal")).is_err());
}

/// `random_net` with the activation `activation` and `buckets` output buckets of divisor
/// `divisor`, each bucket with weights and a bias of its own.
fn random_net_v2(
    def: &VariantDef,
    width: usize,
    seed: u64,
    activation: Activation,
    (buckets, divisor): (usize, usize),
) -> NetFile {
    let mut next = test_rng(seed + 1000);
    let mut file = random_net(def, width, seed);
    file.activation = activation;
    file.buckets = buckets;
    file.divisor = divisor;
    file.out_weights = (0..buckets * 2 * width)
        .map(|_| next(255) as i16 - 127)
        .collect();
    file.out_bias = (0..buckets)
        .map(|_| next(2_000_001) as i32 - 1_000_000)
        .collect();
    file
}

#[test]
fn version_2_net_files_round_trip() {
    let def = def_of("historia");
    let file = random_net_v2(def, 8, 4, Activation::SquaredClippedRelu, (8, 4));
    assert_eq!(file.version(), 2);
    let bytes = file.to_bytes();
    assert_eq!(&bytes[8..12], &2u32.to_le_bytes());
    assert_eq!(NetFile::parse(&bytes).unwrap(), file);
    let header = 8 + 4 + 4 + "historia".len() + 16 + 12;
    let expected = header + 2 * (file.columns.len() + 8) + 8 * (2 * 2 * 8 + 4);
    assert_eq!(bytes.len(), expected);
    // Activation code, buckets and divisor follow T, N, K and H.
    let at = header - 12;
    let word = |i: usize| u32::from_le_bytes(bytes[at + 4 * i..at + 4 * i + 4].try_into().unwrap());
    assert_eq!((word(0), word(1), word(2)), (1, 8, 4));
    // One bucket with the clipped ReLU but a divisor other than 1 needs version 2 as well;
    // with divisor 1 it is written as version 1.
    let mut one = random_net_v2(def, 8, 5, Activation::ClippedRelu, (1, 3));
    assert_eq!(one.version(), 2);
    assert_eq!(NetFile::parse(&one.to_bytes()).unwrap(), one);
    one.divisor = 1;
    assert_eq!(one.version(), 1);
    assert_eq!(&one.to_bytes()[8..12], &1u32.to_le_bytes());
    assert_eq!(NetFile::parse(&one.to_bytes()).unwrap(), one);
}

#[test]
fn broken_version_2_files_are_refused_with_the_reason() {
    let def = def_of("normal");
    let file = random_net_v2(def, 8, 6, Activation::SquaredClippedRelu, (8, 4));
    let bytes = file.to_bytes();
    let err = |b: &[u8]| NetFile::parse(b).unwrap_err();
    let at = 8 + 4 + 4 + "normal".len() + 16;
    let with_word = |i: usize, v: u32| {
        let mut b = bytes.clone();
        b[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
        b
    };
    assert_eq!(err(&with_word(0, 2)), NetError::UnknownActivation(2));
    assert_eq!(err(&with_word(1, 0)), NetError::BadBuckets(0));
    assert_eq!(err(&with_word(1, 17)), NetError::BadBuckets(17));
    assert_eq!(err(&with_word(2, 0)), NetError::BadDivisor(0));
    // A header that promises more or fewer buckets than the file holds.
    assert!(matches!(err(&with_word(1, 9)), NetError::Truncated { .. }));
    assert_eq!(
        err(&with_word(1, 7)),
        NetError::TrailingBytes(2 * 2 * 8 + 4)
    );
    assert!(matches!(
        err(&bytes[..bytes.len() - 1]),
        NetError::Truncated { .. }
    ));
    assert!(matches!(err(&bytes[..at + 6]), NetError::Truncated { .. }));
    let mut version = bytes.clone();
    version[8] = 6;
    assert_eq!(err(&version), NetError::Version(6));
    for e in [NetError::UnknownActivation(2), NetError::BadBuckets(17)] {
        assert!(e.to_string().starts_with("bad header: "), "{e}");
    }
    // A net put together in code with too few output weights is refused, not a panic.
    let mut short = file.clone();
    short.out_weights.pop();
    assert!(matches!(
        Network::for_game(&short, def, "x"),
        Err(NetError::WrongShape(_))
    ));
    let mut no_divisor = file.clone();
    no_divisor.divisor = 0;
    assert_eq!(
        Network::for_game(&no_divisor, def, "x").unwrap_err(),
        NetError::BadDivisor(0)
    );
}

/// The integer evaluation of a squared-activation net with eight buckets against the
/// float reference on random positions of every game; returns the buckets used.
fn check_squared_against_float<B: BoardWidth>(def: &VariantDef, seed: u64) -> Vec<usize> {
    let file = random_net_v2(def, 32, seed, Activation::SquaredClippedRelu, (8, 4));
    let net = Network::for_game(&file, def, "test").unwrap();
    let mut used = Vec::new();
    for mut pos in random_positions::<B>(def.name, 40, seed) {
        let fresh = net.evaluate(&pos);
        pos.set_input_columns(Some(net.input_columns()));
        assert_eq!(net.evaluate(&pos), fresh, "{}", def.name);
        assert_near_the_float_reference(&net, &pos, def.name);
        used.push(net.bucket(&pos));
    }
    used
}

#[test]
fn squared_activation_with_eight_buckets_equals_the_float_reference_within_a_centipawn() {
    let mut used = Vec::new();
    for (i, def) in all_variants().iter().enumerate() {
        if def.geometry.squares() <= 64 {
            used.extend(check_squared_against_float::<u64>(def, 70 + i as u64));
        } else {
            used.extend(check_squared_against_float::<u128>(def, 70 + i as u64));
        }
    }
    used.sort_unstable();
    used.dedup();
    assert!(used.len() >= 4, "buckets used: {used:?}");
}

#[test]
fn the_active_input_count_is_the_number_of_active_inputs() {
    use crate::rules::position::accumulator::active_inputs;
    fn check<B: BoardWidth>(def: &VariantDef, seed: u64) {
        let shape = crate::rules::position::InputShape::of_game(def);
        for pos in random_positions::<B>(def.name, 20, seed) {
            for view in Color::iter() {
                let n = active_inputs(&shape, &pos, view).len();
                assert_eq!(pos.active_input_count(), n, "{}", def.name);
            }
        }
    }
    for (i, def) in all_variants().iter().enumerate() {
        if def.geometry.squares() <= 64 {
            check::<u64>(def, 30 + i as u64);
        } else {
            check::<u128>(def, 30 + i as u64);
        }
    }
}

/// A net whose output weights are all 0 and whose bucket `b` has the bias of `100·b`
/// centipawns: its evaluation names the bucket.
fn bias_only_net(def: &VariantDef, activation: Activation, divisor: usize) -> Network {
    let mut file = random_net_v2(def, 8, 8, activation, (8, divisor));
    file.out_weights.fill(0);
    file.out_bias = (0..8).map(|b| b * QA * QB / 4).collect();
    Network::for_game(&file, def, "test").unwrap()
}

/// `(game, FEN, active inputs per view)`.
const MATERIAL: &[(&str, &str, usize)] = &[
    ("normal", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 2),
    ("normal", "4k3/pppp4/8/8/8/8/PPP5/4K3 b - - 0 1", 9),
    ("normal", "r3k3/pppp4/8/8/8/8/PPPP4/R3K2R w - - 0 1", 13),
    (
        "normal",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        32,
    ),
    ("great", "6k3/3P5p/10/10/10/10/10/K9[G] w - - 0 1", 5),
    (
        "great",
        "6k3/3P5p/10/10/10/10/10/K9[GGGGGGGGGGnn] w - - 0 1",
        14,
    ),
];

#[test]
fn the_output_bucket_follows_the_material() {
    for (game, fen, n) in MATERIAL {
        let def = def_of(game);
        for activation in [Activation::ClippedRelu, Activation::SquaredClippedRelu] {
            for divisor in [1, 2, 4] {
                let net = bias_only_net(def, activation, divisor);
                let bucket = (n / divisor).min(7);
                let eval = |pos_eval: i32, float: f64| {
                    assert_eq!(pos_eval, 100 * bucket as i32, "{fen} / {divisor}");
                    assert!((float - pos_eval as f64).abs() < 1e-9, "{fen}");
                };
                if def.geometry.squares() <= 64 {
                    let rules = <u64 as BoardWidth>::rules(variant_id(game).unwrap());
                    let pos = Position::<u64>::from_fen(rules, fen).unwrap();
                    assert_eq!(pos.active_input_count(), *n, "{fen}");
                    assert_eq!(net.bucket(&pos), bucket);
                    eval(net.evaluate(&pos), net.evaluate_float(&pos));
                } else {
                    let rules = <u128 as BoardWidth>::rules(variant_id(game).unwrap());
                    let pos = Position::<u128>::from_fen(rules, fen).unwrap();
                    assert_eq!(pos.active_input_count(), *n, "{fen}");
                    assert_eq!(net.bucket(&pos), bucket);
                    eval(net.evaluate(&pos), net.evaluate_float(&pos));
                }
            }
        }
    }
}

#[test]
fn squared_vector_and_plain_arithmetic_agree() {
    let mut next = test_rng(19);
    let a: Vec<i16> = (0..256).map(|_| next(800) as i16 - 300).collect();
    let w: Vec<i16> = (0..256).map(|_| next(257) as i16 - 128).collect();
    let plain = simd::dot_squared_plain::<{ QA as i16 }>(&a, &w);
    assert_eq!(simd::dot_squared::<{ QA as i16 }>(&a, &w), plain);
    let by_hand: i64 = a
        .iter()
        .zip(&w)
        .map(|(&x, &y)| (x.clamp(0, 255) as i64).pow(2) * y as i64)
        .sum();
    assert_eq!(plain as i64, by_hand);
    // Absurd weights wrap the same way on both paths, and do not panic.
    let huge: Vec<i16> = (0..256)
        .map(|i| if i % 2 == 0 { i16::MAX } else { i16::MIN })
        .collect();
    let full = vec![i16::MAX; 256];
    assert_eq!(
        simd::dot_squared::<{ QA as i16 }>(&full, &huge),
        simd::dot_squared_plain::<{ QA as i16 }>(&full, &huge)
    );
}

/// `random_net_v2` for chess with output scale `scale` and, with `kings`, two king buckets
/// (files a-d and e-h).
fn scaled_net(scale: u32, kings: bool) -> NetFile {
    let mut file = random_net_v2(def_of("normal"), 8, 9, Activation::ClippedRelu, (8, 4));
    file.output_scale = scale;
    if kings {
        let map = (0..64).map(|s| u8::from(s % 8 >= 4)).collect();
        file.kings = Some(KingBuckets {
            royal: 5,
            count: 2,
            map,
        });
        file.columns = file
            .columns
            .iter()
            .chain(file.columns.iter())
            .copied()
            .collect();
    }
    file
}

#[test]
fn version_4_files_round_trip_with_their_output_scale() {
    for kings in [false, true] {
        let file = scaled_net(361, kings);
        assert_eq!(file.version(), 4);
        let bytes = file.to_bytes();
        assert_eq!(&bytes[8..12], &4u32.to_le_bytes());
        assert_eq!(NetFile::parse(&bytes).unwrap(), file);
        // The default scale is written in the older versions, as before version 4.
        let old = scaled_net(400, kings);
        assert_eq!(old.version(), if kings { 3 } else { 2 });
        assert_eq!(NetFile::parse(&old.to_bytes()).unwrap(), old);
    }
}

#[test]
fn the_evaluation_follows_the_output_scale() {
    let def = def_of("normal");
    for kings in [false, true] {
        let base = Network::for_game(&scaled_net(400, kings), def, "x").unwrap();
        let scaled = Network::for_game(&scaled_net(361, kings), def, "x").unwrap();
        for pos in random_positions::<u64>("normal", 40, 11) {
            let (b, s) = (base.evaluate_float(&pos), scaled.evaluate_float(&pos));
            assert!((s - b * 361.0 / 400.0).abs() < 1e-6, "{b} {s}");
            assert_near_the_float_reference(&scaled, &pos, "normal");
        }
    }
}

#[test]
fn broken_version_4_files_are_refused_with_the_reason() {
    let bytes = scaled_net(361, false).to_bytes();
    let err = |b: &[u8]| NetFile::parse(b).unwrap_err();
    // The output scale and the king-bucket flag follow the activation, buckets and divisor.
    let at = 8 + 4 + 4 + "normal".len() + 16 + 12;
    let with_word = |i: usize, v: u32| {
        let mut b = bytes.clone();
        b[at + 4 * i..at + 4 * i + 4].copy_from_slice(&v.to_le_bytes());
        b
    };
    assert_eq!(err(&with_word(0, 0)), NetError::BadOutputScale(0));
    assert_eq!(err(&with_word(0, 10_001)), NetError::BadOutputScale(10_001));
    assert!(matches!(err(&with_word(1, 2)), NetError::BadKingBuckets(_)));
    assert!(err(&with_word(0, 0))
        .to_string()
        .starts_with("bad header: output scale 0"));
    assert!(matches!(err(&bytes[..at + 6]), NetError::Truncated { .. }));
    // A net put together in code with no output scale is refused, not a zero evaluation.
    let mut zero = scaled_net(361, false);
    zero.output_scale = 0;
    assert_eq!(
        Network::for_game(&zero, def_of("normal"), "x").unwrap_err(),
        NetError::BadOutputScale(0)
    );
}

/// `scaled_net(361, kings)` with a material-scale table of `entries` entries, falling from
/// 1024 with the most inputs to 512 with none.
fn material_net(kings: bool, entries: usize) -> NetFile {
    let mut file = scaled_net(361, kings);
    let last = (entries - 1).max(1);
    file.material_scale = Some(
        (0..entries)
            .map(|n| (512 + 512 * n / last) as u16)
            .collect(),
    );
    file
}

#[test]
fn version_5_files_round_trip_with_their_material_scale() {
    for kings in [false, true] {
        let file = material_net(kings, 33);
        assert_eq!(file.version(), 5);
        let bytes = file.to_bytes();
        assert_eq!(&bytes[8..12], &5u32.to_le_bytes());
        assert_eq!(NetFile::parse(&bytes).unwrap(), file);
    }
}

#[test]
fn the_evaluation_follows_the_material_scale() {
    let def = def_of("normal");
    for (kings, entries) in [(false, 33), (true, 33), (false, 20)] {
        let plain = Network::for_game(&scaled_net(361, kings), def, "x").unwrap();
        let file = material_net(kings, entries);
        let table = file.material_scale.clone().unwrap();
        let scaled = Network::for_game(&file, def, "x").unwrap();
        for pos in random_positions::<u64>("normal", 60, 12) {
            // Counts past the table's end take its last entry.
            let n = pos.active_input_count().min(entries - 1);
            let factor = f64::from(table[n]) / 1024.0;
            let (p, s) = (plain.evaluate_float(&pos), scaled.evaluate_float(&pos));
            assert!((s - p * factor).abs() < 1e-6, "{p} {s} {factor}");
            assert_near_the_float_reference(&scaled, &pos, "normal");
        }
    }
    // A table of 1024s gives exactly the integers of no table.
    let mut unit = scaled_net(361, true);
    let plain = Network::for_game(&unit, def, "x").unwrap();
    unit.material_scale = Some(vec![1024; 40]);
    let same = Network::for_game(&unit, def, "x").unwrap();
    for pos in random_positions::<u64>("normal", 60, 13) {
        assert_eq!(plain.evaluate(&pos), same.evaluate(&pos));
    }
}

#[test]
fn broken_version_5_files_are_refused_with_the_reason() {
    let file = material_net(false, 33);
    let bytes = file.to_bytes();
    let err = |b: &[u8]| NetFile::parse(b).unwrap_err();
    // The table (its length, then u16 entries) follows the scale and the king flag.
    let at = 8 + 4 + 4 + "normal".len() + 16 + 12 + 8;
    let mut b = bytes.clone();
    b[at..at + 4].copy_from_slice(&0u32.to_le_bytes());
    assert!(matches!(err(&b), NetError::BadMaterialScale(_)));
    b[at..at + 4].copy_from_slice(&513u32.to_le_bytes());
    assert!(err(&b)
        .to_string()
        .starts_with("bad header: material scale: 513 entries"));
    let mut b = bytes.clone();
    b[at + 4 + 2 * 7..at + 4 + 2 * 8].copy_from_slice(&0u16.to_le_bytes());
    assert_eq!(
        err(&b).to_string(),
        "bad header: material scale: entry 7 is 0 (1 to 4096, in 1/1024)"
    );
    b[at + 4 + 2 * 7..at + 4 + 2 * 8].copy_from_slice(&4097u16.to_le_bytes());
    assert!(matches!(err(&b), NetError::BadMaterialScale(_)));
    assert!(matches!(err(&bytes[..at + 10]), NetError::Truncated { .. }));
    // A net put together in code with a bad table is refused too.
    let mut empty = file.clone();
    empty.material_scale = Some(Vec::new());
    assert!(matches!(
        Network::for_game(&empty, def_of("normal"), "x").unwrap_err(),
        NetError::BadMaterialScale(_)
    ));
}
