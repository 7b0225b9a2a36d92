//! `sako datagen`: in every variant the written lines parse, their positions are legal
//! and quiet (side to move not in check), come from the searched part of a game, and
//! carry the result the rules give the game; one thread is deterministic; a positions
//! target resumes; bad input exits with status 2, never a panic.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::{fresh_temp_dir, sako_bin};
use sako::datagen::{self, Event, FinishedGame, Options, Record, SearchLimit, Target, PLY_CAP};
use sako::rules::position::outcome::GameResult;
use sako::rules::variant::all_variants;
use sako::Game;

fn sako(args: &[&str]) -> Output {
    Command::new(sako_bin())
        .args(args)
        .output()
        .expect("run sako")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("datagen wrote its file")
}

/// Checks one line by hand (not with `Record::parse`): three fields, an integer score,
/// a result of 1, 0.5 or 0. Returns the FEN and the result.
fn fields(line: &str) -> (String, &str) {
    let f: Vec<&str> = line.split(" | ").collect();
    assert_eq!(f.len(), 3, "{line}");
    assert!(f[1].parse::<i32>().is_ok(), "score of {line}");
    assert!(["1", "0.5", "0"].contains(&f[2]), "result of {line}");
    (f[0].to_string(), f[2])
}

/// Replays `g` with the rules core: the game goes on before every move and ends with
/// its result (or reaches the ply cap as a draw); every kept position was reached after
/// the random plies, in order. Returns the positions' FENs in game order.
fn replay(variant: &str, g: &FinishedGame) {
    let ctx = format!("{variant} game {}", g.number);
    let mut game = Game::new(variant, Some(&g.start_fen)).expect("start FEN");
    let mut kept = g.records.iter().peekable();
    for (i, m) in g.moves.iter().enumerate() {
        assert!(game.outcome().is_none(), "{ctx}: over before ply {i}");
        if i >= g.random_plies && kept.peek().is_some_and(|r| r.fen == game.fen()) {
            kept.next();
        }
        game.play(m).unwrap_or_else(|e| panic!("{ctx}: {m}: {e}"));
    }
    assert!(
        kept.next().is_none(),
        "{ctx}: a kept position is not in the game"
    );
    match game.outcome() {
        Some(o) => assert_eq!(o.result, g.result, "{ctx}: {}", o.line()),
        None => {
            assert!(g.capped && g.moves.len() == PLY_CAP, "{ctx}: not over");
            assert_eq!(g.result, GameResult::Draw, "{ctx}: the cap is a draw");
        }
    }
}

#[test]
fn every_variant_writes_legal_quiet_positions_with_the_games_result() {
    let dir = fresh_temp_dir("datagen-variants");
    for def in all_variants() {
        let v = def.name;
        let out = dir.join(format!("{v}.txt"));
        let opts = Options {
            target: Target::Games(2),
            limit: SearchLimit::Nodes(300),
            seed: 7,
            ..Options::new(v, &out)
        };
        let mut games = Vec::new();
        let status = datagen::run(&opts, &mut |e| {
            if let Event::Game(g) = e {
                games.push(g.clone());
            }
        })
        .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!((status.games, games.len()), (2, 2), "{v}");
        let text = read(&out);
        let lines: Vec<&str> = text.lines().collect();
        let records: Vec<&Record> = games.iter().flat_map(|g| &g.records).collect();
        assert_eq!(
            lines.len(),
            records.len(),
            "{v}: lines are the games' records"
        );
        assert!(!lines.is_empty(), "{v}: nothing written");
        for (line, record) in lines.iter().zip(&records) {
            let (fen, result) = fields(line);
            assert_eq!(line, &record.line(), "{v}");
            assert_eq!(result, datagen::result_text(record.result), "{v}");
            let game = Game::new(v, Some(&fen)).unwrap_or_else(|e| panic!("{v}: {fen}: {e}"));
            assert!(!game.in_check(), "{v}: {fen} is in check");
        }
        for g in &games {
            replay(v, g);
        }
    }
}

#[test]
fn a_node_limit_stops_the_search_there_every_time() {
    use sako::engine::{eval::Eval, search::SearchOptions, time::Limits, tt::Tt};
    let mut game = Game::new("normal", None).expect("start position");
    let eval = Eval::embedded("normal").expect("eval");
    let search = |game: &mut Game| {
        let (tt, stop) = (Tt::new(1), std::sync::atomic::AtomicBool::new(false));
        let opts = SearchOptions::new(Limits::nodes(1000), &tt, &eval, &stop);
        game.search(&opts, &mut |_| {}).expect("search")
    };
    let (a, b) = (search(&mut game), search(&mut game));
    assert!((1000..1000 + 64).contains(&a.nodes), "{} nodes", a.nodes);
    assert_eq!((a.nodes, &a.best, a.score), (b.nodes, &b.best, b.score));
}

#[test]
fn several_threads_write_every_game() {
    let dir = fresh_temp_dir("datagen-threads");
    let out = dir.join("data.txt");
    let mut games = 0;
    let mut records = 0;
    let opts = Options {
        target: Target::Games(4),
        limit: SearchLimit::Depth(2),
        threads: 2,
        ..Options::new("chancellor", &out)
    };
    datagen::run(&opts, &mut |e| {
        if let Event::Game(g) = e {
            games += 1;
            records += g.records.len();
        }
    })
    .expect("run");
    let text = read(&out);
    assert_eq!(games, 4);
    assert_eq!(text.lines().count(), records);
    text.lines().for_each(|l| drop(fields(l)));
}

#[test]
fn one_thread_is_deterministic() {
    let dir = fresh_temp_dir("datagen-determinism");
    let run = |name: &str| {
        let out = dir.join(name);
        let out_s = out.to_str().expect("utf-8 path");
        let o = sako(&[
            "datagen",
            "--variant",
            "shatar",
            "--games",
            "3",
            "--nodes",
            "400",
            "--seed",
            "5",
            "--out",
            out_s,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        read(&out)
    };
    let (a, b) = (run("a.txt"), run("b.txt"));
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
fn a_positions_target_resumes_on_the_same_file() {
    let dir = fresh_temp_dir("datagen-resume");
    let out = dir.join("data.txt");
    let out_s = out.to_str().expect("utf-8 path");
    let run = |n: usize| {
        let n = n.to_string();
        let o = sako(&[
            "datagen",
            "--variant",
            "normal",
            "--positions",
            &n,
            "--nodes",
            "300",
            "--out",
            out_s,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        // Plain progress lines even when standard error is not a terminal.
        assert!(stderr(&o).contains(" positions/s"), "{}", stderr(&o));
        read(&out)
    };
    let first = run(60);
    let n1 = first.lines().count();
    assert!(n1 >= 60);
    // A run stops after the game that reaches the target: aim past it.
    let n2 = n1 + 100;
    let second = run(n2);
    assert!(second.lines().count() >= n2);
    assert!(second.starts_with(&first), "the first run's lines are kept");
    let new: Vec<&str> = second[first.len()..].lines().collect();
    let old: Vec<&str> = first.lines().collect();
    assert!(
        new.iter().any(|l| !old.contains(l)),
        "the resumed run plays new games"
    );
    // Already at the target: nothing to do.
    assert_eq!(run(n1), second);
}

#[test]
fn openings_are_used_and_bad_lines_skipped() {
    let dir = fresh_temp_dir("datagen-openings");
    let epd = dir.join("openings.epd");
    let start = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
    std::fs::write(&epd, format!("# a comment\nnot a fen\n{start}\n")).expect("write EPD");
    let out = dir.join("data.txt");
    let args = |random: &str| {
        let o = sako(&[
            "datagen",
            "--games",
            "1",
            "--nodes",
            "300",
            "--random-plies",
            random,
            "--openings",
            epd.to_str().expect("utf-8 path"),
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("line skipped"), "{}", stderr(&o));
    };
    args("0");
    let text = read(&out);
    let first = text.lines().next().expect("a line");
    assert!(first.starts_with(start), "{first}");
}

#[test]
fn bad_input_exits_2_without_a_panic() {
    let dir = fresh_temp_dir("datagen-bad");
    let out = dir.join("data.txt");
    let out_s = out.to_str().expect("utf-8 path");
    let dir_s = dir.to_str().expect("utf-8 path");
    let only_bad = dir.join("bad.epd");
    std::fs::write(&only_bad, "not a fen\n8/8/8 w - - 0 1\n").expect("write EPD");
    let missing = dir.join("missing.epd");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--variant", "nosuch", "--out", out_s],
        vec!["--games", "2", "--positions", "3", "--out", out_s],
        vec!["--nodes", "5", "--depth", "3", "--out", out_s],
        vec!["--nodes", "0", "--out", out_s],
        vec!["--depth", "0", "--out", out_s],
        vec!["--threads", "0", "--out", out_s],
        vec!["--games", "x", "--out", out_s],
        vec![
            "--openings",
            missing.to_str().expect("utf-8"),
            "--out",
            out_s,
        ],
        vec![
            "--openings",
            only_bad.to_str().expect("utf-8"),
            "--out",
            out_s,
        ],
        vec!["--out", dir_s],
        vec!["--games", "1"],
    ];
    for case in cases {
        let mut args = vec!["datagen"];
        args.extend(&case);
        let o = sako(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{case:?}: {err}");
        assert!(!err.contains("panicked"), "{case:?}: {err}");
        assert!(!err.trim().is_empty(), "{case:?}: no message");
    }
    assert!(
        !out.exists() || read(&out).is_empty(),
        "bad input writes nothing"
    );
}

/// The written score is from White's point of view: from a start where White has no
/// Queen (Black a Queen up, Black to move), the first kept positions with either side to
/// move score well below zero. A side-to-move score would make Black's positive.
#[test]
fn scores_are_from_whites_point_of_view() {
    let dir = fresh_temp_dir("datagen-white-pov");
    let epd = dir.join("openings.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1\n",
    )
    .expect("write openings");
    let out = dir.join("data.txt");
    let opts = Options {
        target: Target::Games(1),
        limit: SearchLimit::Nodes(3000),
        random_plies: 0,
        openings: Some(epd),
        ..Options::new("normal", &out)
    };
    datagen::run(&opts, &mut |_| {}).expect("run");
    let text = read(&out);
    let records: Vec<Record> = text
        .lines()
        .map(|l| Record::parse(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for side in [" b ", " w "] {
        let r = records
            .iter()
            .find(|r| r.fen.contains(side))
            .unwrap_or_else(|| panic!("no kept position with '{side}' to move:\n{text}"));
        assert!(
            r.score < -300,
            "Black is a Queen up, yet '{}' scores {} for White:\n{text}",
            r.fen,
            r.score
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
