//! Tests of nets with king buckets (file version 3): the kept accumulators equal a fresh
//! sum while kings move between buckets, the integer evaluation follows the float
//! reference, files round trip and malformed ones are refused with the reason.

use super::tests::{assert_near_the_float_reference, check_accumulators_of, def_of, random_net};
use super::*;
use crate::engine::eval::{random_positions, test_rng};
use crate::rules::moves::MoveKind;

/// `random_net` with `count` king buckets: a random bucket per square and a random set
/// of columns per bucket.
fn random_kings_net(def: &VariantDef, width: usize, seed: u64, count: usize) -> NetFile {
    let mut next = test_rng(seed + 2000);
    let mut file = random_net(def, width, seed);
    let royal = def.pieces.iter().position(|p| p.royal).unwrap();
    let squares = def.geometry.squares();
    let map = (0..squares).map(|_| next(count) as u8).collect();
    file.kings = Some(KingBuckets { royal, count, map });
    file.columns = (0..count * file.columns.len())
        .map(|_| next(121) as i16 - 60)
        .collect();
    file
}

#[test]
fn kept_accumulators_follow_kings_across_buckets_in_every_variant() {
    let mut kinds = Vec::new();
    for (i, def) in all_variants().iter().enumerate() {
        let seed = 300 + i as u64;
        let file = random_kings_net(def, 16, seed, 4);
        let (played, changes) = if def.geometry.squares() <= 64 {
            check_accumulators_of::<u64>(def, &file, seed)
        } else {
            check_accumulators_of::<u128>(def, &file, seed)
        };
        assert!(changes >= 20, "{}: {changes} bucket changes", def.name);
        kinds.extend(played);
    }
    for k in [MoveKind::Drop, MoveKind::Castle, MoveKind::EnPassant] {
        assert!(kinds.contains(&k), "no {k:?} was played");
    }
}

#[test]
fn a_move_taken_back_before_installing_refreshes_a_view_whose_king_changed_bucket() {
    let def = def_of("normal");
    let mut file = random_kings_net(def, 16, 5, 8);
    if let Some(k) = &mut file.kings {
        // e1 and g1 in White's view: castling changes White's bucket.
        (k.map[4], k.map[6]) = (0, 1);
    }
    let net = Network::for_game(&file, def, "t").unwrap();
    let rules = <u64 as BoardWidth>::rules(variant_id("normal").unwrap());
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let mut pos = Position::<u64>::from_fen(rules, fen).unwrap();
    let castle = pos.parse_move("e1g1").unwrap();
    pos.make(castle);
    pos.set_input_columns(Some(net.input_columns()));
    pos.unmake(castle);
    pos.update_accumulators();
    assert_eq!(pos.accumulators().unwrap().1, &net.columns.refresh(&pos));
}

#[test]
fn a_king_back_in_a_bucket_sums_from_its_last_fresh_sums_there() {
    // Every square in bucket 0 but d1 and d2 (White's view): the white king leaves
    // bucket 0, comes back to it, and enters bucket 1 again after a capture changed the
    // board, so the last fresh sums are reused with inputs both added and removed.
    let def = def_of("normal");
    let mut file = random_kings_net(def, 16, 9, 2);
    if let Some(k) = &mut file.kings {
        k.map.iter_mut().for_each(|b| *b = 0);
        (k.map[3], k.map[11]) = (1, 1);
    }
    let net = Network::for_game(&file, def, "t").unwrap();
    let rules = <u64 as BoardWidth>::rules(variant_id("normal").unwrap());
    let fen = "4k3/1p6/8/8/8/8/r7/4K2R w - - 0 1";
    let mut pos = Position::<u64>::from_fen(rules, fen).unwrap();
    pos.set_input_columns(Some(net.input_columns()));
    let mut made = Vec::new();
    for uci in ["e1d1", "a2a1", "d1e2", "a1h1", "e2d2", "b7b5"] {
        let m = pos.parse_move(uci).unwrap();
        pos.make(m);
        made.push(m);
        pos.update_accumulators();
        assert_eq!(
            pos.accumulators().unwrap().1,
            &net.columns.refresh(&pos),
            "after {uci}"
        );
    }
    while let Some(m) = made.pop() {
        pos.unmake(m);
        pos.update_accumulators();
        assert_eq!(pos.accumulators().unwrap().1, &net.columns.refresh(&pos));
    }
}

#[test]
fn king_bucketed_evaluation_equals_the_float_reference_within_a_centipawn() {
    for (i, def) in all_variants().iter().enumerate() {
        let seed = 400 + i as u64;
        let net = Network::for_game(&random_kings_net(def, 32, seed, 6), def, "t").unwrap();
        if def.geometry.squares() <= 64 {
            check_kings_against_float::<u64>(&net, def, seed);
        } else {
            check_kings_against_float::<u128>(&net, def, seed);
        }
    }
}

fn check_kings_against_float<B: BoardWidth>(net: &Network, def: &VariantDef, seed: u64) {
    for mut pos in random_positions::<B>(def.name, 40, seed) {
        let fresh = net.evaluate(&pos);
        pos.set_input_columns(Some(net.input_columns()));
        pos.update_accumulators();
        assert_eq!(net.evaluate(&pos), fresh, "{}", def.name);
        assert_near_the_float_reference(net, &pos, def.name);
    }
}

#[test]
fn one_king_bucket_evaluates_as_a_net_without_buckets() {
    let def = def_of("normal");
    let plain = random_net(def, 16, 8);
    let mut single = plain.clone();
    let royal = def.pieces.iter().position(|p| p.royal).unwrap();
    single.kings = Some(KingBuckets::single(royal, 64));
    assert_eq!(single.version(), 3);
    let (a, b) = (
        Network::for_game(&plain, def, "a").unwrap(),
        Network::for_game(&single, def, "b").unwrap(),
    );
    for pos in random_positions::<u64>("normal", 30, 8) {
        assert_eq!(a.evaluate(&pos), b.evaluate(&pos));
    }
}

#[test]
fn version_3_net_files_round_trip() {
    let def = def_of("great");
    let file = random_kings_net(def, 8, 9, 5);
    assert_eq!(file.version(), 3);
    let bytes = file.to_bytes();
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
    assert_eq!(NetFile::parse(&bytes).unwrap(), file);
    let header = 8 + 4 + 4 + "great".len() + 16 + 12 + 8 + 80;
    let expected = header + 2 * (file.columns.len() + 8) + 2 * 2 * 8 + 4;
    assert_eq!(bytes.len(), expected);
    assert_eq!(file.columns.len(), 5 * file.inputs() * 8);
}

#[test]
fn broken_version_3_files_are_refused_with_the_reason() {
    let def = def_of("normal");
    let file = random_kings_net(def, 8, 10, 4);
    let bytes = file.to_bytes();
    let err = |b: &[u8]| NetFile::parse(b).unwrap_err();
    // The royal type and the bucket count follow the activation, buckets and divisor.
    let at = 8 + 4 + 4 + "normal".len() + 16 + 12;
    let with = |offset: usize, v: &[u8]| {
        let mut b = bytes.clone();
        b[at + offset..at + offset + v.len()].copy_from_slice(v);
        b
    };
    let bad = |b: &[u8]| matches!(err(b), NetError::BadKingBuckets(_));
    assert!(
        bad(&with(0, &6u32.to_le_bytes())),
        "royal type past the types"
    );
    assert!(bad(&with(4, &0u32.to_le_bytes())), "no bucket");
    assert!(bad(&with(4, &65u32.to_le_bytes())), "too many buckets");
    assert!(
        bad(&with(8 + 17, &[4])),
        "a square in a bucket past the count"
    );
    assert!(matches!(
        err(&bytes[..at + 8 + 30]),
        NetError::Truncated { .. }
    ));
    // A count that promises more columns than the file holds, or fewer.
    assert!(matches!(
        err(&with(4, &5u32.to_le_bytes())),
        NetError::Truncated { .. }
    ));
    assert!(matches!(
        err(&with(4, &3u32.to_le_bytes())),
        NetError::TrailingBytes(_) | NetError::BadKingBuckets(_)
    ));
    let e = err(&with(0, &6u32.to_le_bytes()));
    assert!(
        e.to_string().starts_with("bad header: king buckets: "),
        "{e}"
    );
    // Buckets by a piece that is not the game's king.
    let mut queen = file.clone();
    if let Some(k) = &mut queen.kings {
        k.royal = 4;
    }
    assert!(matches!(
        Network::for_game(&queen, def, "x"),
        Err(NetError::WrongShape(_))
    ));
}
