use super::*;

use crate::rules::variant::variant_id;

fn chess() -> &'static VariantDef {
    &all_variants()[0]
}

fn phase(ply: u32) -> Phase {
    Phase {
        material: 6000,
        pieces: 24,
        ply,
    }
}

#[test]
fn the_built_in_table_reads() {
    check_built_in().unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn every_variant_gets_a_model() {
    for def in all_variants() {
        let m = model(def).unwrap_or_else(|| panic!("{}: no wdl model", def.name));
        assert!(wdl(def, 0, &phase(40)).is_some(), "{}", def.name);
        // the line serves the variant by name or through its network's family
        assert!(!m.games.is_empty(), "{}", def.name);
    }
}

#[test]
fn chances_sum_to_1000_and_are_symmetric() {
    for def in all_variants() {
        for ply in [0, 20, 60, 150, 400] {
            for s in (-3000..=3000).step_by(7) {
                let w = wdl(def, s, &phase(ply)).expect("a model");
                assert_eq!(w.win + w.draw + w.loss, 1000, "{} {s} {ply}", def.name);
                let m = wdl(def, -s, &phase(ply)).expect("a model");
                assert_eq!((w.win, w.draw), (m.loss, m.draw), "{} {s} {ply}", def.name);
            }
        }
    }
}

#[test]
fn chances_are_monotone_in_the_score() {
    for def in all_variants() {
        let mut last = wdl(def, -5000, &phase(60)).expect("a model");
        for s in -4999..=5000 {
            let w = wdl(def, s, &phase(60)).expect("a model");
            assert!(
                w.win >= last.win && w.loss <= last.loss,
                "{} at {s}",
                def.name
            );
            last = w;
        }
        assert!(last.win > 990, "{}: {last:?} at +5000", def.name);
        let even = wdl(def, 0, &phase(60)).expect("a model");
        assert_eq!(even.win, even.loss, "{}", def.name);
    }
}

#[test]
fn mate_scores_are_certain() {
    let p = phase(80);
    let win = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    let loss = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };
    // a flat model (b = 100000) would give a mate score no certainty of its own
    let flat = parse("normal games=normal input=none lo=0 hi=1 a=0 b=100000").expect("reads");
    assert_eq!(flat[0].wdl(MATE_BOUND, &p), win);
    assert_eq!(flat[0].wdl(-31_990, &p), loss);
    assert!(flat[0].wdl(MATE_BOUND - 1, &p).win < 600);
    for def in all_variants() {
        assert_eq!(wdl(def, MATE_BOUND, &p), Some(win), "{}", def.name);
        assert_eq!(wdl(def, 31_990, &p), Some(win), "{}", def.name);
        assert_eq!(wdl(def, -MATE_BOUND, &p), Some(loss), "{}", def.name);
        assert_eq!(wdl(def, -31_990, &p), Some(loss), "{}", def.name);
    }
}

const GOOD: &str = "normal games=normal input=ply lo=10 hi=200 a=100,200 b=50,60";

#[test]
fn a_good_line_reads() {
    let models = parse(&format!("# comment\n\n{GOOD}  # trailing\n")).expect("reads");
    assert_eq!(models.len(), 1);
    let m = &models[0];
    assert_eq!(m.family, "normal");
    assert_eq!(m.input, PhaseInput::Ply);
    assert_eq!((m.lo, m.hi), (10.0, 200.0));
    assert_eq!(
        (m.a.clone(), m.b.clone()),
        (vec![100.0, 200.0], vec![50.0, 60.0])
    );
    // at ply 100: x = 0.5, a = 250, b = 85: a score of a is an even chance to win
    let w = m.wdl(250, &phase(100));
    assert_eq!(w.win, 500);
}

#[test]
fn broken_lines_are_refused() {
    let cases: &[(&str, WdlErrorKind)] = &[
        (
            "normal games=normal input=ply lo=10 hi=200 a=100,200",
            WdlErrorKind::MissingField("b"),
        ),
        (
            "normal games=normal input=age lo=10 hi=200 a=1 b=1",
            WdlErrorKind::UnknownInput("age".into()),
        ),
        (
            "normal games=normal input=ply lo=10 hi=200 a=1,x b=1",
            WdlErrorKind::BadNumber("x".into()),
        ),
        (
            "normal games=normal input=ply lo=10 hi=200 a=1 b=1 c=2",
            WdlErrorKind::UnknownField("c".into()),
        ),
        (
            "normal games=normal input=ply lo=10 hi=200 a=1 a=2 b=1",
            WdlErrorKind::SecondField("a".into()),
        ),
        (
            "normal games=normal input=ply lo=300 hi=200 a=1 b=1",
            WdlErrorKind::BadRange,
        ),
        (
            "normal games=normal input=ply lo=10 hi=200 a=1 b=-50,10",
            WdlErrorKind::NonPositiveB,
        ),
        (
            "normal games=checkers input=ply lo=10 hi=200 a=1 b=1",
            WdlErrorKind::UnknownGame("checkers".into()),
        ),
        (
            "normal games=normal ply",
            WdlErrorKind::NotAField("ply".into()),
        ),
        (
            "normal games=normal input=ply lo=10 hi=200 a=1 b=inf",
            WdlErrorKind::BadNumber("inf".into()),
        ),
    ];
    for (line, kind) in cases {
        let text = format!("# header\n{line}\n");
        assert_eq!(
            parse(&text),
            Err(WdlError {
                line: 2,
                kind: kind.clone()
            }),
            "{line}"
        );
    }
    let twice = format!("{GOOD}\nother games=chancellor,normal input=ply lo=1 hi=2 a=1 b=1\n");
    let e = parse(&twice).expect_err("normal twice");
    assert_eq!(e.kind, WdlErrorKind::SecondGame("normal".into()));
    assert_eq!(
        e.to_string(),
        "wdl.txt:2: game 'normal' served by an earlier line"
    );
}

#[test]
fn phase_of_a_position() {
    let id = variant_id("normal").expect("normal");
    let rules = u64::rules(id);
    let start = Position::<u64>::from_fen(rules, chess().start_fen).expect("start");
    let p = Phase::of(&start);
    let values = piece_values(id);
    let want: u32 = 16 * values[0] + 4 * values[1] + 4 * values[2] + 4 * values[3] + 2 * values[4];
    assert_eq!((p.material, p.pieces, p.ply), (want, 30, 0));
    let later = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 31";
    let p = Phase::of(&Position::<u64>::from_fen(rules, later).expect("fen"));
    assert_eq!((p.material, p.pieces, p.ply), (values[0], 1, 61));
    // Historia's hands count: its start has every piece but the pawns in hand, the
    // kings (not counted) too: 16 pawns and 9 pieces a side
    let hid = variant_id("historia").expect("historia");
    let def = &all_variants()[hid];
    let h = Phase::of(&Position::<u64>::from_fen(u64::rules(hid), def.start_fen).expect("start"));
    assert_eq!(h.pieces, 34, "{}", def.start_fen);
}

#[test]
fn a_game_no_line_names_takes_its_networks_family() {
    // a file playing chancellor and chancellorx lends chancellor's line to chancellorx
    let text = "chancellor games=chancellor input=ply lo=10 hi=200 a=100 b=50\n\
                normal games=normal input=ply lo=10 hi=200 a=100 b=50\n";
    let models = parse(text).expect("reads");
    let games = |list: &[&str]| list.iter().map(|g| g.to_string()).collect::<Vec<_>>();
    let nets = [games(&["normal"]), games(&["chancellor", "chancellorx"])];
    assert_eq!(line_for_game(&models, "chancellorx", &nets), Some(0));
    assert_eq!(line_for_game(&models, "normal", &nets), Some(1));
    assert_eq!(line_for_game(&models, "great", &nets), None);
    // without the shared file chancellorx has no line
    assert_eq!(line_for_game(&models, "chancellorx", &nets[..1]), None);
    // the built-in files: chess names its own line, great has none in this text
    assert_eq!(family_line(&models, chess()), Some(1));
    let great = &all_variants()[variant_id("great").expect("great")];
    assert_eq!(family_line(&models, great), None);
}
