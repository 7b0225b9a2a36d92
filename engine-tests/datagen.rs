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

// ----- the binary format -----------------------------------------------------------

/// Positions of every variant with hands, drops, 9x9 and 10x8 boards, reached by
/// playing: the start position and the positions after a few random-ish moves.
fn sample_positions(variant: &str) -> Vec<String> {
    let mut game = Game::new(variant, None).expect("start");
    let mut fens = vec![game.fen()];
    for i in 0..40 {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[(i * 7 + 3) % legal.len()].clone();
        game.play(&m).expect("legal move");
        fens.push(game.fen());
    }
    fens
}

#[test]
fn binary_records_round_trip_in_every_variant() {
    use sako::datagen::binary::{decode_checked, encode};
    for (id, def) in all_variants().iter().enumerate() {
        let mut holdings = false;
        for (k, fen) in sample_positions(def.name).into_iter().enumerate() {
            holdings |= fen.contains('[') && !fen.contains("[]");
            let r = Record {
                fen: fen.clone(),
                score: k as i32 * 37 - 500,
                result: [
                    GameResult::WhiteWins,
                    GameResult::Draw,
                    GameResult::BlackWins,
                ][k % 3],
            };
            let rec = encode(id, &r).unwrap_or_else(|e| panic!("{}: {e}", def.name));
            let back = decode_checked(id, &rec).unwrap_or_else(|e| panic!("{}: {e}", def.name));
            assert_eq!(back, r, "{}", def.name);
        }
        if ["historia", "great"].contains(&def.name) {
            assert!(
                holdings,
                "{}: a position with pieces in hand was tried",
                def.name
            );
        }
    }
}

#[test]
fn binary_records_that_are_no_position_of_the_game_are_refused() {
    use sako::datagen::binary::{decode_checked, encode};
    let id = sako::rules::variant::variant_id("normal").unwrap();
    let rec = |fen: &str| {
        let r = Record {
            fen: fen.into(),
            score: 0,
            result: GameResult::Draw,
        };
        encode(id, &r).expect("encodes")
    };
    assert!(decode_checked(id, &rec("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).is_ok());
    for bad in [
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",  // two white kings
        "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", // the side not to move is in check
        "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",  // a pawn on its promotion rank
        "8/8/8/8/8/8/8/4K3 w - - 0 1",     // no black king
    ] {
        assert!(decode_checked(id, &rec(bad)).is_err(), "{bad}");
    }
    // A record of another variant's file is refused too.
    let chancellor = sako::rules::variant::variant_id("chancellor").unwrap();
    assert!(decode_checked(chancellor, &rec("4k3/8/8/8/8/8/8/4K3 w - - 0 1")).is_err());
}

fn bin_run(out: &Path, positions: u64, threads: &str) -> Output {
    sako(&[
        "datagen",
        "--variant",
        "normal",
        "--format",
        "bin",
        "--positions",
        &positions.to_string(),
        "--nodes",
        "300",
        "--threads",
        threads,
        "--seed",
        "9",
        "--random-plies",
        "4-10",
        "--out",
        out.to_str().expect("utf-8 path"),
    ])
}

#[test]
fn a_resumed_binary_run_is_the_uninterrupted_run() {
    use sako::datagen::binary::{HEADER_SIZE, RECORD_SIZE};
    let dir = fresh_temp_dir("datagen-bin-resume");
    let whole = dir.join("whole.bin");
    let o = bin_run(&whole, 400, "1");
    assert!(o.status.success(), "{}", stderr(&o));
    let full = std::fs::read(&whole).unwrap();
    assert_eq!(&full[..8], b"SAKODATA");
    assert_eq!((full.len() - HEADER_SIZE) % RECORD_SIZE, 0);
    // Stopped at a game's end (a smaller target), then resumed: the same bytes.
    let parts = dir.join("parts.bin");
    for n in [100, 250, 400] {
        let o = bin_run(&parts, n, "1");
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(std::fs::read(&parts).unwrap(), full);
    // Killed: the process is stopped hard after its first games, then resumed.
    let killed = dir.join("killed.bin");
    let mut child = Command::new(sako_bin())
        .args([
            "datagen",
            "--variant",
            "normal",
            "--format",
            "bin",
            "--positions",
            "400",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--seed",
            "9",
            "--random-plies",
            "4-10",
            "--out",
        ])
        .arg(&killed)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run sako");
    let t0 = std::time::Instant::now();
    while std::fs::metadata(&killed).map(|m| m.len()).unwrap_or(0)
        < (HEADER_SIZE + RECORD_SIZE) as u64
        && t0.elapsed() < std::time::Duration::from_secs(20)
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    let o = bin_run(&killed, 400, "1");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&killed).unwrap(), full);
    // A record cut in the middle: the partial record is cut off, with a warning; the
    // file then holds whole records and no record twice.
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &full[..HEADER_SIZE + 30 * RECORD_SIZE + 33]).unwrap();
    let o = bin_run(&cut, 500, "1");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("partial record"), "{}", stderr(&o));
    let resumed = std::fs::read(&cut).unwrap();
    assert_eq!((resumed.len() - HEADER_SIZE) % RECORD_SIZE, 0);
    assert_eq!(
        resumed[..HEADER_SIZE + 30 * RECORD_SIZE],
        full[..HEADER_SIZE + 30 * RECORD_SIZE]
    );
    assert!((resumed.len() - HEADER_SIZE) / RECORD_SIZE >= 500);
    // With two threads a resumed run writes new games, not the old ones again.
    let two = dir.join("two.bin");
    for n in [150, 300] {
        let o = bin_run(&two, n, "2");
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let two = std::fs::read(&two).unwrap();
    let records: Vec<&[u8]> = two[HEADER_SIZE..].chunks(RECORD_SIZE).collect();
    let distinct: std::collections::HashSet<&[u8]> = records.iter().copied().collect();
    assert!(
        distinct.len() * 100 >= records.len() * 95,
        "{} of {}",
        distinct.len(),
        records.len()
    );
}

#[test]
fn wrong_or_truncated_binary_files_are_refused() {
    let dir = fresh_temp_dir("datagen-bin-refused");
    let text = dir.join("data.bin");
    std::fs::write(&text, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.5\n").unwrap();
    let o = bin_run(&text, 10, "1");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not a sako binary data file"),
        "{}",
        stderr(&o)
    );
    // Another variant's file.
    let other = dir.join("other.bin");
    let o = sako(&[
        "datagen",
        "--variant",
        "chancellor",
        "--format",
        "bin",
        "--games",
        "1",
        "--nodes",
        "200",
        "--out",
        other.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = bin_run(&other, 10, "1");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // The readers refuse a wrong header with a clear message.
    let mut bytes = std::fs::read(&other).unwrap();
    bytes[8] = 99;
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let o = sako(&[
        "datagen-convert",
        "--in",
        bad.to_str().unwrap(),
        "--out",
        dir.join("x.txt").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("version"), "{}", stderr(&o));
    let o = sako(&[
        "datagen-convert",
        "--stats",
        dir.join("short.bin").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_converter_goes_both_ways_and_the_readers_read_binary() {
    let dir = fresh_temp_dir("datagen-convert");
    let bin = dir.join("d.bin");
    let o = sako(&[
        "datagen",
        "--variant",
        "chancellor",
        "--games",
        "2",
        "--nodes",
        "300",
        "--out",
        bin.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let txt = dir.join("d.txt");
    let back = dir.join("back.bin");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    let o = sako(&["datagen-convert", "--in", &p(&bin), "--out", &p(&txt)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines = read(&txt);
    assert!(lines.lines().count() > 10);
    for l in lines.lines() {
        let (fen, _) = fields(l);
        Game::new("chancellor", Some(&fen)).expect("a chancellor position");
    }
    let o = sako(&[
        "datagen-convert",
        "--variant",
        "chancellor",
        "--in",
        &p(&txt),
        "--out",
        &p(&back),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&bin).unwrap());
    let o = sako(&["datagen-convert", "--stats", &p(&bin)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(&format!("positions: {}", lines.lines().count())),
        "{out}"
    );
    // nnue-features reads both formats alike.
    let (fa, fb) = (dir.join("a.feat"), dir.join("b.feat"));
    for (data, feat) in [(&bin, &fa), (&txt, &fb)] {
        let o = sako(&[
            "nnue-features",
            "--variant",
            "chancellor",
            "--data",
            &p(data),
            "--out",
            &p(feat),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(std::fs::read(&fa).unwrap(), std::fs::read(&fb).unwrap());
    // So does tune: the same table from either file.
    let (ta, tb) = (dir.join("a.tune"), dir.join("b.tune"));
    for (data, table) in [(&bin, &ta), (&txt, &tb)] {
        let o = sako(&[
            "tune",
            "--variant",
            "chancellor",
            "--data",
            &p(data),
            "--epochs",
            "2",
            "--out",
            &p(table),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let table = |t: &Path| -> String {
        let text = read(t);
        text.lines()
            .filter(|l| !l.starts_with("# Tuned"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        table(&ta),
        table(&tb),
        "the same table but for the file names"
    );
    // A file of another variant is refused.
    let o = sako(&[
        "nnue-features",
        "--variant",
        "normal",
        "--data",
        &p(&bin),
        "--out",
        &p(&fa),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn adjudicated_games_end_early_with_the_searches_verdict() {
    use sako::datagen::{Adjudication, Format};
    let dir = fresh_temp_dir("datagen-adjudication");
    for v in ["normal", "historia"] {
        let out = dir.join(format!("{v}.bin"));
        let opts = Options {
            target: Target::Games(6),
            limit: SearchLimit::Nodes(300),
            seed: 3,
            format: Format::Bin,
            random_plies: 2,
            random_plies_max: Some(12),
            ..Options::new(v, &out)
        };
        assert_eq!(opts.adjudicate, None, "on by default for bin");
        let mut games = Vec::new();
        datagen::run(&opts, &mut |e| {
            if let Event::Game(g) = e {
                games.push(g.clone());
            }
        })
        .unwrap_or_else(|e| panic!("{v}: {e}"));
        let a = Adjudication::default();
        for g in &games {
            assert!((2..=12).contains(&g.random_plies) || g.moves.len() == g.random_plies);
            let mut game = Game::new(v, Some(&g.start_fen)).unwrap();
            for m in &g.moves {
                game.play(m).unwrap();
            }
            if g.adjudicated {
                assert!(
                    game.outcome().is_none(),
                    "{v}: adjudicated, yet over by the rules"
                );
                if g.result == GameResult::Draw {
                    assert!(g.moves.len() >= a.draw_after + a.draw_plies, "{v}");
                }
            } else if !g.capped {
                assert_eq!(game.outcome().map(|o| o.result), Some(g.result), "{v}");
            }
            assert!(g.records.iter().all(|r| r.result == g.result));
        }
        let f = datagen::binary::BinFile::read(&out).unwrap();
        let n: usize = games.iter().map(|g| g.records.len()).sum();
        assert_eq!(f.len(), n, "{v}");
    }
    // Random plies vary from game to game.
    let out = dir.join("vary.txt");
    let opts = Options {
        target: Target::Games(8),
        limit: SearchLimit::Nodes(100),
        random_plies: 0,
        random_plies_max: Some(20),
        ..Options::new("normal", &out)
    };
    let mut counts = std::collections::HashSet::new();
    datagen::run(&opts, &mut |e| {
        if let Event::Game(g) = e {
            counts.insert(g.random_plies);
        }
    })
    .unwrap();
    assert!(counts.len() >= 3, "{counts:?}");
    // A bad range is refused.
    let o = sako(&[
        "datagen",
        "--random-plies",
        "9-3",
        "--out",
        dir.join("x.txt").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
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
