//! `sako tune`: fits the numbers of a variant's evaluation table to training positions
//! (`sako datagen`'s lines) by logistic regression — "Texel tuning". The evaluation is
//! linear in its parameters, so each position is traced once ([`data`](crate::tune::data)) and the fit
//! ([`fit`](crate::tune::fit)) runs on the traces: first the sigmoid scale `K`, then Adam on the exact
//! gradient. The result is written in the table format, with the comments of the file
//! it started from, so that a diff shows what moved.

pub mod data;
pub mod fit;

use std::path::{Path, PathBuf};

use crate::engine::eval::tables::{self, EvalTables, Pair};
use crate::engine::eval::Eval;
use crate::game::unknown_variant;
use crate::rules::variant::{all_variants, variant_id, VariantDef};
use crate::tune::data::Dataset;
use crate::tune::fit::{Adam, Weights};

/// What `sako tune` is asked to do.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Variant name.
    pub variant: String,
    /// Data files (`FEN | score | result` lines).
    pub data: Vec<PathBuf>,
    /// Passes of Adam over all positions.
    pub epochs: usize,
    /// Adam's step size in centipawns.
    pub rate: f64,
    /// Share of the game result in the target (the rest: the search score).
    pub lambda: f64,
    /// Tune only parameters whose names start with one of these (`None`: all).
    pub params: Option<Vec<String>>,
    /// Hold parameters whose names start with one of these.
    pub hold: Vec<String>,
    /// Start from `DIR/<variant>.txt` instead of the built-in table.
    pub eval_tables: Option<PathBuf>,
    /// Read at most this many positions.
    pub limit: usize,
    /// Weight of the pull back to the starting values (L2, per centipawn squared).
    pub l2: f64,
    /// Hold parameters used by fewer positions than this (`None`: a thousandth of the
    /// positions).
    pub min_count: Option<usize>,
    /// Where to write the tuned table.
    pub out: PathBuf,
    /// The command line, for the table's header.
    pub command: String,
}

/// What a tuning run did.
#[derive(Clone, Debug)]
pub struct TuneSummary {
    /// Positions used.
    pub positions: usize,
    /// Lines that could not be read.
    pub rejected: usize,
    /// The fitted sigmoid scale.
    pub k: f64,
    /// Loss of the starting parameters.
    pub loss_before: f64,
    /// Loss of the tuned (rounded) parameters.
    pub loss_after: f64,
}

/// True when parameter `name` is selected by `pattern`: equal, or `pattern` is a
/// leading part of it up to a `:` (`pst` selects `pst:N:e4`, `pst:N` too).
pub fn selects(pattern: &str, name: &str) -> bool {
    name == pattern || (name.starts_with(pattern) && name[pattern.len()..].starts_with(':'))
}

/// The table file `opts` starts from: its text and its parsed tables.
fn start_tables(
    def: &'static VariantDef,
    dir: Option<&Path>,
) -> Result<(String, EvalTables), String> {
    let tables = EvalTables::load(def, dir)?;
    let text = match dir.map(|d| d.join(format!("{}.txt", def.name))) {
        Some(p) if p.exists() => {
            std::fs::read_to_string(&p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?
        }
        _ => def.eval_table.to_string(),
    };
    Ok((text, tables))
}

/// Runs the tuning `opts` describes; `log` hears a line per step and per epoch.
pub fn run(opts: &TuneOptions, log: &mut dyn FnMut(&str)) -> Result<TuneSummary, String> {
    let id = variant_id(&opts.variant).ok_or_else(|| unknown_variant(&opts.variant))?;
    let def = &all_variants()[id];
    if opts.data.is_empty() {
        return Err("give at least one --data file".into());
    }
    if !(0.0..=1.0).contains(&opts.lambda) {
        return Err(format!("lambda must be 0..1, not {}", opts.lambda));
    }
    let (text, mut tables) = start_tables(def, opts.eval_tables.as_deref())?;
    let eval = Eval::new(&tables);
    let ds = load_data(&eval, opts, log)?;
    let free = free_parameters(&eval, opts)?;
    let free = hold_rare(&eval, &ds, free, opts.min_count, log);
    let start: Vec<Weights> = eval
        .params()
        .iter()
        .map(|p| [p.mg as f64, p.eg as f64])
        .collect();
    let k = fit::fit_k(&ds, &start);
    let loss_before = fit::loss(&ds, &start, k, opts.lambda);
    log(&format!("K = {k:.4}, loss {loss_before:.6}"));
    let w = descend(&ds, &start, &free, k, opts, log);
    let rounded: Vec<Pair> = w
        .iter()
        .map(|p| Pair::new(p[0].round() as i32, p[1].round() as i32))
        .collect();
    let w_rounded: Vec<Weights> = rounded.iter().map(|p| [p.mg as f64, p.eg as f64]).collect();
    let loss_after = fit::loss(&ds, &w_rounded, k, opts.lambda);
    log(&format!(
        "tuned: loss {loss_after:.6} (was {loss_before:.6})"
    ));
    report_moves(&eval, &rounded, log);
    eval.layout().unflatten(&rounded, &mut tables);
    let summary = TuneSummary {
        positions: ds.samples.len(),
        rejected: ds.rejected,
        k,
        loss_before,
        loss_after,
    };
    let header = header_lines(opts, &summary);
    let out = tables::write(def, &tables, &text, &header);
    std::fs::write(&opts.out, out)
        .map_err(|e| format!("cannot write {}: {e}", opts.out.display()))?;
    Ok(summary)
}

/// Reads and traces the data files of `opts`, logging what was skipped.
fn load_data(
    eval: &Eval,
    opts: &TuneOptions,
    log: &mut dyn FnMut(&str),
) -> Result<Dataset, String> {
    let paths: Vec<&Path> = opts.data.iter().map(|p| p.as_path()).collect();
    let ds = Dataset::load(eval, &paths, opts.limit)?;
    for r in &ds.reasons {
        log(&format!("skipped: {r}"));
    }
    log(&format!(
        "{} positions, {} features, {} lines skipped",
        ds.samples.len(),
        ds.index.len(),
        ds.rejected
    ));
    if ds.samples.is_empty() {
        return Err("no usable positions in the data".into());
    }
    Ok(ds)
}

/// Holds the free parameters that fewer than `min_count` positions use (default: a
/// thousandth of the positions): too few results to fit them without noise.
fn hold_rare(
    eval: &Eval,
    ds: &Dataset,
    mut free: Vec<bool>,
    min_count: Option<usize>,
    log: &mut dyn FnMut(&str),
) -> Vec<bool> {
    let layout = eval.layout();
    let min_count = min_count.unwrap_or(ds.samples.len() / 1000);
    let counts = ds.usage(layout.len);
    let mut rare = 0;
    for (f, &n) in free.iter_mut().zip(&counts) {
        if *f && n > 0 && n < min_count {
            *f = false;
            rare += 1;
        }
    }
    log(&format!(
        "{} of {} parameters free ({rare} held as used by fewer than {min_count} positions)",
        free.iter().filter(|&&f| f).count(),
        layout.len
    ));
    free
}

/// The Adam descent from `start`: `opts.epochs` steps on the exact gradient plus the
/// L2 pull back to `start`, moving only the `free` parameters.
fn descend(
    ds: &Dataset,
    start: &[Weights],
    free: &[bool],
    k: f64,
    opts: &TuneOptions,
    log: &mut dyn FnMut(&str),
) -> Vec<Weights> {
    let mut w = start.to_vec();
    let mut adam = Adam::new(w.len(), opts.rate);
    for epoch in 1..=opts.epochs {
        let (loss, mut grad) = fit::gradient(ds, &w, k, opts.lambda);
        for ((g, now), start) in grad.iter_mut().zip(&w).zip(start) {
            g[0] += opts.l2 * (now[0] - start[0]);
            g[1] += opts.l2 * (now[1] - start[1]);
        }
        adam.step(&mut w, &grad, free);
        log(&format!("epoch {epoch} loss {loss:.6}"));
    }
    w
}

/// Which parameters move: those `--params` selects (all by default) and `--hold` does
/// not; the king's value (never used) always holds, and so does `term:mop_up` unless
/// `--params` names it: it teaches the search how to mate a bare king, while the data
/// (mates are left out) would only teach it the drawn bare-king endings.
fn free_parameters(eval: &Eval, opts: &TuneOptions) -> Result<Vec<bool>, String> {
    let layout = eval.layout();
    let names: Vec<String> = (0..layout.len)
        .map(|i| layout.name(i, eval.pair_types()))
        .collect();
    let patterns = opts.params.iter().flatten().chain(&opts.hold);
    for p in patterns {
        if !names.iter().any(|n| selects(p, n)) {
            return Err(format!(
                "'{p}' names no parameter (names look like value:N, pst:N:e4, mobility:N:5, \
                 pair:B, safe_check:Q, king_danger:7, passed:3, term:tempo)"
            ));
        }
    }
    let king_value = layout.value + eval_king(eval);
    Ok(names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let chosen = opts
                .params
                .as_ref()
                .is_none_or(|list| list.iter().any(|p| selects(p, n)));
            let held = opts.hold.iter().any(|p| selects(p, n));
            let named = opts.params.iter().flatten().any(|p| p == n);
            let guide = n == "term:mop_up" && !named;
            chosen && !held && !guide && i != king_value
        })
        .collect())
}

/// The king's piece type of `eval`'s variant.
fn eval_king(eval: &Eval) -> usize {
    let id = variant_id(eval.variant).unwrap_or(0);
    all_variants()[id]
        .pieces
        .iter()
        .position(|p| p.royal)
        .unwrap_or(0)
}

/// Logs the parameters that moved most.
fn report_moves(eval: &Eval, tuned: &[Pair], log: &mut dyn FnMut(&str)) {
    let layout = eval.layout();
    let mut moves: Vec<(i32, usize)> = eval
        .params()
        .iter()
        .zip(tuned)
        .enumerate()
        .map(|(i, (a, b))| ((a.mg - b.mg).abs() + (a.eg - b.eg).abs(), i))
        .filter(|m| m.0 > 0)
        .collect();
    moves.sort_unstable_by(|a, b| b.cmp(a));
    log(&format!(
        "{} parameters changed; the largest moves:",
        moves.len()
    ));
    for &(_, i) in moves.iter().take(25) {
        let (a, b) = (eval.params()[i], tuned[i]);
        log(&format!(
            "  {:<22} {:>5} {:>5}  ->  {:>5} {:>5}",
            layout.name(i, eval.pair_types()),
            a.mg,
            a.eg,
            b.mg,
            b.eg
        ));
    }
}

/// The `# Tuned ...` lines at the top of the written table.
fn header_lines(opts: &TuneOptions, s: &TuneSummary) -> Vec<String> {
    let files: Vec<String> = opts.data.iter().map(|p| p.display().to_string()).collect();
    vec![
        format!("# Tuned by: {}", opts.command),
        format!(
            "# Tuned on: {} positions of {} ({} lines skipped); K = {:.4}; loss {:.6} -> {:.6}; lambda {}",
            s.positions,
            files.join(", "),
            s.rejected,
            s.k,
            s.loss_before,
            s.loss_after,
            opts.lambda
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::params::Layout;

    /// Traces of chess positions after random plies.
    fn chess_traces(count: usize) -> Vec<crate::engine::eval::Trace> {
        let ev = Eval::embedded("normal").unwrap();
        crate::engine::eval::random_positions::<u64>("normal", count, 0x2545_f491_4f6c_dd1d)
            .iter()
            .map(|pos| ev.trace(pos))
            .collect()
    }

    #[test]
    fn tuning_recovers_the_values_that_labelled_the_data() {
        let def = &all_variants()[variant_id("normal").unwrap()];
        let tables = EvalTables::embedded(def).unwrap();
        let layout = Layout::of(&tables);
        let start: Vec<Weights> = layout
            .flatten(&tables)
            .iter()
            .map(|p| [p.mg as f64, p.eg as f64])
            .collect();
        // The "true" evaluation: other piece values.
        let mut truth = start.clone();
        let wanted = [
            (1, [400.0, 260.0]),
            (2, [300.0, 360.0]),
            (3, [520.0, 600.0]),
            (4, [880.0, 1080.0]),
        ];
        for &(t, v) in &wanted {
            truth[layout.value + t] = v;
        }
        let mut ds = Dataset::default();
        for t in chess_traces(4000) {
            ds.push_trace(&t, 0.0, 0.0);
        }
        // Label every position with the expected result of the true evaluation.
        let k = 1.3;
        for i in 0..ds.samples.len() {
            let s = ds.samples[i];
            ds.samples[i].result = fit::sigmoid(k, fit::evaluate(&ds, &s, &truth)) as f32;
        }
        assert!((fit::fit_k(&ds, &truth) - k).abs() < 0.01, "K is fitted");
        let free: Vec<bool> = (0..layout.len)
            .map(|i| (layout.value + 1..layout.value + 5).contains(&i))
            .collect();
        let mut w = start;
        let mut adam = Adam::new(w.len(), 3.0);
        let (first, _) = fit::gradient(&ds, &w, k, 1.0);
        for _ in 0..1500 {
            let (_, g) = fit::gradient(&ds, &w, k, 1.0);
            adam.step(&mut w, &g, &free);
        }
        let last = fit::loss(&ds, &w, k, 1.0);
        assert!(last < first / 50.0, "loss {first} -> {last}");
        for &(t, v) in &wanted {
            let got = w[layout.value + t];
            for h in 0..2 {
                assert!(
                    (got[h] - v[h]).abs() < 10.0,
                    "type {t}: {got:?}, want {v:?}"
                );
            }
        }
    }

    #[test]
    fn names_select_parameters() {
        assert!(selects("pst", "pst:N:e4"));
        assert!(selects("pst:N", "pst:N:e4"));
        assert!(!selects("pst:N", "pst:NB:e4"));
        assert!(!selects("ps", "pst:N:e4"));
        assert!(selects("term:tempo", "term:tempo"));
    }
}
