//! Tests of the engine driver: features, move translation, edit mode, scores.

use super::xboard::{edit_commands, level_base, parse_features};
use super::*;

#[test]
fn features() {
    let f = parse_features(r#"myname="sako 0.1" variants="normal,great" ping=1 done=0"#);
    assert_eq!(
        f,
        vec![
            ("myname".into(), "sako 0.1".into()),
            ("variants".into(), "normal,great".into()),
            ("ping".into(), "1".into()),
            ("done".into(), "0".into())
        ]
    );
}

#[test]
fn move_translation() {
    let up = |c: char| {
        if c.eq_ignore_ascii_case(&'q') {
            if c == 'q' {
                'j'
            } else {
                'J'
            }
        } else {
            c
        }
    };
    assert_eq!(translate_move("e7e8q", up), "e7e8j");
    assert_eq!(translate_move("Q@b1", up), "J@b1");
    assert_eq!(translate_move("e2e4", up), "e2e4");
    assert_eq!(translate_move("b8b9a", up), "b8b9a");
}

#[test]
fn edit_mode() {
    let cmds = edit_commands("k9/10/10/10/10/10/PP8/K9 b - - 0 1").expect("edit");
    assert_eq!(
        cmds,
        vec!["a2a3", "edit", "#", "Pa2", "Pb2", "Ka1", "c", "Ka8", "."]
    );
    assert!(edit_commands("8/8/8/8/8/8/8/8[Kk] w - - 0 1").is_err());
}

#[test]
fn scores() {
    assert_eq!(EngineScore::Cp(23).text(), "+0.23");
    assert_eq!(EngineScore::Cp(-150).text(), "-1.50");
    assert_eq!(EngineScore::Cp(-5).text(), "-0.05");
    assert_eq!(EngineScore::Mate(3).text(), "+M3");
    assert_eq!(EngineScore::Mate(-2).text(), "-M2");
    assert_eq!(level_base(300_000), "5");
    assert_eq!(level_base(5_000), "0:05");
    assert_eq!(level_base(90_500), "1:31");
}
