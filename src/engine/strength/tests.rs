use super::*;
use crate::rules::compile::BoardWidth;
use crate::rules::variant::variant_id;

fn line(mv: &str, cp: i32) -> Line {
    Line {
        mv: mv.to_string(),
        reply: None,
        score: Score::Cp(cp),
    }
}

fn lowest() -> LevelParams {
    let t = LevelTable::built_in();
    let lo = t.elo_range().0;
    t.params("normal", lo).unwrap_or_else(|| panic!("no rows"))
}

#[test]
fn the_built_in_table_reads_and_groups_the_families() {
    let t = LevelTable::parse(table::BUILT_IN).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.family("chancellorx"), "chancellor");
    assert_eq!(t.family("shatarhia"), "shatar");
    assert_eq!(t.family("normal"), "chess");
    assert_eq!(t.family("nosuchgame"), "*");
    assert_eq!(t.elo_range(), (800, 2800));
    assert!(t.rows("great").len() >= 4);
}

#[test]
fn broken_tables_give_typed_errors() {
    let row = "level * 800 300 1 8 250 120 400\n";
    let cases = [
        (
            "levle * 800\n",
            LevelError::UnknownDirective {
                line: 1,
                word: "levle".into(),
            },
        ),
        (
            "level * 800 300\n",
            LevelError::FieldCount {
                line: 1,
                want: 9,
                got: 4,
            },
        ),
        (
            "level * 800 x 1 8 250 120 400\n",
            LevelError::BadNumber {
                line: 1,
                field: "x".into(),
            },
        ),
        (
            "level * 800 300 1 0 250 120 400\n",
            LevelError::BadNumber {
                line: 1,
                field: "0".into(),
            },
        ),
        (
            "family chess\n",
            LevelError::FieldCount {
                line: 1,
                want: 3,
                got: 2,
            },
        ),
        (
            "level chess 800 300 1 8 250 120 400\n",
            LevelError::NoDefaultRows,
        ),
    ];
    for (text, want) in cases {
        assert_eq!(LevelTable::parse(text).err(), Some(want), "{text}");
    }
    let unordered = format!("{row}{row}");
    assert_eq!(
        LevelTable::parse(&unordered).err(),
        Some(LevelError::Unordered { line: 2 })
    );
    assert!(LevelTable::parse(row).is_ok());
    // The defaults stand in for a broken file.
    assert_eq!(LevelTable::defaults().elo_range(), (800, 2800));
}

#[test]
fn parameters_grow_smoothly_with_the_elo() {
    let t = LevelTable::built_in();
    let mut last = t.params("normal", 800).unwrap_or_else(|| panic!("rows"));
    for elo in (850..=2800).step_by(50) {
        let p = t.params("normal", elo).unwrap_or_else(|| panic!("rows"));
        assert!(p.nodes >= last.nodes && p.depth >= last.depth, "{elo}");
        assert!(p.margin <= last.margin && p.loss <= last.loss, "{elo}");
        last = p;
    }
    // Halfway between two labels the node budget is their geometric mean.
    let at = |elo| t.params("normal", elo).unwrap_or_else(|| panic!("rows"));
    let (low, mid, high) = (at(1000), at(1100), at(1200));
    let mean = ((low.nodes * high.nodes) as f64).sqrt().round() as u64;
    assert!(
        low.nodes < mid.nodes && mid.nodes < high.nodes,
        "{}",
        mid.nodes
    );
    assert_eq!(mid.nodes, mean);
}

#[test]
fn full_strength_is_skill_20_without_the_limit() {
    let t = LevelTable::built_in();
    assert_eq!(Strength::full(2800).params(&t, "normal"), None);
    let skill0 = Strength {
        skill: 0,
        ..Strength::full(2800)
    };
    assert_eq!(skill0.params(&t, "normal").map(|p| p.elo), Some(800));
    // The Elo wins when the limit is on.
    let elo = Strength {
        limit: true,
        elo: 2000,
        skill: 0,
    };
    assert_eq!(elo.params(&t, "normal").map(|p| p.elo), Some(2000));
}

#[test]
fn the_lowest_level_does_not_always_play_the_best_line() {
    let p = lowest();
    let lines = [
        line("e2e4", 30),
        line("d2d4", 25),
        line("g1f3", 10),
        line("a2a3", -5),
    ];
    let picks: Vec<usize> = (0..200)
        .filter_map(|s| p.choose(&lines, &mut |_| 0, s))
        .collect();
    assert_eq!(picks.len(), 200);
    assert!(picks.iter().filter(|&&i| i != 0).count() > 40);
    assert!(picks.iter().filter(|&&i| i == 0).count() > 20);
    // The same seed, the same choice.
    assert_eq!(
        p.choose(&lines, &mut |_| 0, 7),
        p.choose(&lines, &mut |_| 0, 7)
    );
}

#[test]
fn moves_beyond_the_margin_or_losing_material_are_never_chosen() {
    let p = lowest();
    let lines = [
        line("e2e4", 30),
        line("d1h5", 20),
        line("g1f3", 10),
        line("a2a3", 30 - p.margin - 1),
    ];
    let mut loss = |m: &str| if m == "d1h5" { 900 } else { 0 };
    for s in 0..300 {
        let i = p.choose(&lines, &mut loss, s).unwrap_or(99);
        assert!(i == 0 || i == 2, "seed {s}: line {i}");
    }
    // When the best move itself loses as much, so may the others.
    let mut all_lose = |_: &str| 900;
    assert!((0..300).any(|s| p.choose(&lines, &mut all_lose, s) == Some(1)));
}

fn chess(fen: &str) -> Position<u64> {
    let id = variant_id("normal").unwrap_or(0);
    Position::<u64>::from_fen(u64::rules(id), fen).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn material_loss_sees_a_hanging_queen_and_a_bad_capture() {
    let eval = Eval::embedded("normal").unwrap_or_else(|e| panic!("{e}"));
    // Black's queen on d4 is attacked by the pawn on c3.
    let mut pos = chess("rnb1kbnr/pppp1ppp/8/4p3/3q4/2P5/PP1PPPPP/RNBQKBNR b KQkq - 0 1");
    let mut loss = |text: &str| {
        let m = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        material_loss(&mut pos, m, &eval)
    };
    assert_eq!(loss("d4d6"), 0);
    assert!(loss("a7a6") > 700, "the queen hangs");
    // Qxf2+ is taken back by the king: the queen for a pawn.
    assert!(loss("d4f2") > 600);
    // Qxc3 takes the pawn, and the b-pawn and d-pawn take back.
    assert!(loss("d4c3") > 600);
}
