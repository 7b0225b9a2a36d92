//! Tests of the `sako match` argument parser.

use super::*;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn time_controls() {
    assert_eq!(
        TimeControl::parse("40/60+0.5"),
        Ok(TimeControl::Clock {
            moves: 40,
            base_ms: 60_000,
            inc_ms: 500
        })
    );
    assert_eq!(
        TimeControl::parse("2:30"),
        Ok(TimeControl::Clock {
            moves: 0,
            base_ms: 150_000,
            inc_ms: 0
        })
    );
    assert_eq!(TimeControl::parse("inf"), Ok(TimeControl::Infinite));
    assert!(TimeControl::parse("40/").is_err());
    assert!(TimeControl::parse("x+1").is_err());
    assert_eq!(
        TimeControl::parse("5+0.05").map(|t| t.pgn_tag()),
        Ok("5+0.05".into())
    );
    assert_eq!(TimeControl::PerMove(50).pgn_tag(), "0.05/move");
}

#[test]
fn full_command_line() {
    let args = words(
        "-engine name=A cmd=sako arg=uci proto=uci option.Hash=32 -engine cmd=/usr/games/fairy-stockfish \
         proto=uci variant=shatar pieces=Q:J -each tc=40/60+0.5 timemargin=50 -variant shatar -games 2 \
         -rounds 3 -repeat -concurrency 2 -openings file=x.epd format=epd order=random \
         -pgnout out.pgn min -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=500 \
         -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -recover -srand 7",
    );
    let Ok(Parsed::Run(c)) = parse(&args) else {
        panic!("parse failed: {:?}", parse(&args).err());
    };
    assert_eq!(c.engines.len(), 2);
    assert_eq!(c.engines[0].name.as_deref(), Some("A"));
    assert_eq!(c.engines[0].command, vec!["sako", "uci"]);
    assert_eq!(c.engines[0].options, vec![("Hash".into(), "32".into())]);
    assert_eq!(c.engines[1].pieces, vec![('Q', 'J')]);
    assert_eq!(c.engines[1].to_engine_letter('q'), 'j');
    assert_eq!(c.engines[1].from_engine_letter('J'), 'Q');
    assert_eq!(c.engines[1].timemargin_ms, 50);
    assert_eq!(c.variant, "shatar");
    assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 3, 2, 2));
    assert!(c.recover);
    assert_eq!(c.srand, 7);
    assert_eq!(
        c.draw,
        Some(DrawRule {
            movenumber: 40,
            movecount: 8,
            score: 10
        })
    );
    assert!(c.pgnout.as_ref().is_some_and(|p| p.min));
    assert!(c.sprt.is_some());
}

#[test]
fn errors_are_explained() {
    let err = |s: &str| match parse(&words(s)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("'{s}' should fail"),
    };
    assert!(err("-engine cmd=a tc=1 -engine cmd=b tc=1 -bogus").contains("unknown option"));
    assert!(err("-engine cmd=a -engine cmd=b").contains("no time control"));
    assert!(err("-engine cmd=a st=1").contains("exactly two"));
    assert!(err("-engine cmd=a st=1 -engine cmd=b st=1 -variant nope").contains("unknown variant"));
    assert!(err("-engine cmd=a nodes=5 -engine cmd=b st=1").contains("proto=uci"));
    assert!(err("-engine cmd=a st=1 pieces=QJ -engine cmd=b st=1").contains("pieces"));
    assert!(matches!(parse(&[]), Err(ArgsError::NoArguments)));
    assert!(err("").contains("usage: sako match"));
}

#[test]
fn quoted_commands() {
    assert_eq!(
        split_command("python3 'my engine.py' -x"),
        vec!["python3", "my engine.py", "-x"]
    );
}

#[test]
fn pgn_moves_flag() {
    let base = "-engine cmd=a st=1 -engine cmd=b st=1 -pgnout x.pgn";
    let notation = |extra: &str| match parse(&words(&format!("{base} {extra}"))) {
        Ok(Parsed::Run(c)) => Ok(c.pgn_moves),
        Ok(Parsed::Help) => panic!("help"),
        Err(e) => Err(e.to_string()),
    };
    assert_eq!(notation(""), Ok(PgnMoves::San));
    assert_eq!(notation("-pgnmoves san"), Ok(PgnMoves::San));
    assert_eq!(notation("-pgnmoves coord"), Ok(PgnMoves::Coord));
    let err = notation("-pgnmoves lan").expect_err("unknown notation");
    assert!(err.contains("lan") && err.contains("san, coord"), "{err}");
}
