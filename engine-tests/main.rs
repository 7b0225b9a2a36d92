//! The integration tests: one binary, a module per suite (`cargo test`; one suite:
//! `cargo test --test engine SUITE::`). Each module's doc says what it proves.

mod common;
mod reference;

mod annotate;
mod cli;
mod cutechess;
mod datagen;
mod fen_fuzz;
mod match_broken;
mod match_peers;
mod match_selfplay;
mod nnue;
mod perft_suites;
mod protocol_robustness;
mod protocol_transcripts;
mod python_clients;
mod reference_compare;
mod reference_selfcheck;
mod rules_cases;
mod san;
mod search_multipv;
mod search_selfplay;
mod search_tactics;
mod shakmaty_compare;
mod strength_levels;
mod tune;
mod xboard_pgn;
