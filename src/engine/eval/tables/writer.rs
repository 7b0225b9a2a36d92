//! Writing tables back in the shape of the file they were read from: comments and
//! the order of statements kept, numbers replaced, missing statements added.

use super::{letter_type, Curve, EvalTables, Pair, Scales, Term};
use crate::rules::variant::VariantDef;

/// Writes `tables` (of variant `def`) as a table file in the shape of `original`, the
/// text they were read from: comments and the order of statements are kept, numbers
/// are replaced, older one-number forms become tables, and what `original` lacks is
/// added at the end. `header` lines (each starting with `# Tuned`) replace earlier
/// such lines, after the file's first line.
pub fn write(def: &VariantDef, tables: &EvalTables, original: &str, header: &[String]) -> String {
    let mut w = Writer {
        def,
        tables,
        out: String::new(),
        done: Vec::new(),
        pair_index: 0,
    };
    let lines: Vec<&str> = original.lines().collect();
    let mut i = 0;
    let mut first = true;
    while i < lines.len() {
        let raw = lines[i];
        i += 1;
        if raw.trim_start().starts_with("# Tuned") {
            continue;
        }
        let (content, comment) = match raw.find('#') {
            Some(k) => (&raw[..k], &raw[k..]),
            None => (raw, ""),
        };
        let words: Vec<&str> = content.split_whitespace().collect();
        if words.is_empty() {
            w.out += raw;
            w.out.push('\n');
        } else {
            let rows = w.statement(&words, comment);
            i = skip_statement_lines(&lines, i, rows);
        }
        if first {
            first = false;
            for h in header {
                w.out += h;
                w.out.push('\n');
            }
        }
    }
    w.missing();
    w.out
}

/// The index after `rows` more statement lines of `lines` from `i` on.
fn skip_statement_lines(lines: &[&str], mut i: usize, mut rows: usize) -> usize {
    while rows > 0 && i < lines.len() {
        let content = lines[i].split('#').next().unwrap_or("");
        if !content.trim().is_empty() {
            rows -= 1;
        }
        i += 1;
    }
    i
}

/// The state of [`write()`]: what has been written.
struct Writer<'a> {
    def: &'a VariantDef,
    tables: &'a EvalTables,
    out: String,
    /// Keys of the statements written (`pst N`, `term tempo`, ...).
    done: Vec<String>,
    /// How many `pair` statements were written.
    pair_index: usize,
}

/// A half of a table to write: its `mg|eg|both` word and how to read it from a pair.
type Half = (&'static str, fn(Pair) -> i32);

/// The halves to write: one `both` when they agree, else `mg` and `eg`.
fn halves_to_write(same: bool) -> &'static [Half] {
    if same {
        &[("both", |p| p.mg)]
    } else {
        &[("mg", |p| p.mg), ("eg", |p| p.eg)]
    }
}

/// `v` right-aligned in five columns, the width of the built-in tables.
fn cell(v: i32) -> String {
    format!("{v:>5}")
}

impl Writer<'_> {
    /// Writes the replacement of statement `words` (with its `comment`); returns how
    /// many row lines of the original follow the statement and are replaced with it.
    fn statement(&mut self, words: &[&str], comment: &str) -> usize {
        let def = self.def;
        let t = words.get(1).and_then(|w| letter_type(def, w));
        let rows = match words[0] {
            "pst" => def.geometry.ranks,
            "mobility_table" | "king_danger" | "passed" => 1,
            _ => 0,
        };
        let key = match (words[0], t) {
            ("pst", Some(t)) => format!("pst {}", def.pieces[t].letter),
            ("mobility" | "mobility_table", Some(t)) => {
                format!("mobility {}", def.pieces[t].letter)
            }
            ("term", _) if words.get(1) == Some(&"king_attack") => "king_danger".into(),
            ("term", _) if words.get(1) == Some(&"passed_pawn") => "passed".into(),
            ("king_danger" | "passed", _) => words[0].into(),
            (_, _) => words[..words.len().min(2)].join(" "),
        };
        if words[0] == "pair" {
            if let Some(&(pt, v)) = self.tables.pairs.get(self.pair_index) {
                self.pair_index += 1;
                let letter = def.pieces[pt].letter;
                self.line(&format!("pair {letter} {} {}", v.mg, v.eg), comment);
            }
            return rows;
        }
        if self.done.contains(&key) {
            return rows;
        }
        self.emit(&key, comment);
        rows
    }

    /// Writes the statement(s) behind `key` and marks it done.
    fn emit(&mut self, key: &str, comment: &str) {
        self.done.push(key.to_string());
        let tables = self.tables;
        let def = self.def;
        let mut parts = key.split(' ');
        let (kind, arg) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let t = letter_type(def, arg);
        match (kind, t) {
            ("piece", Some(t)) => {
                let p = &tables.pieces[t];
                let s = format!("piece {arg} {} {} {}", p.value.mg, p.value.eg, p.phase);
                self.line(&s, comment);
            }
            ("pst", Some(t)) => self.pst(t, comment),
            ("mobility", Some(t)) => {
                let title = format!("mobility_table {arg}");
                self.curve(&title, &tables.pieces[t].mobility, comment);
            }
            ("safe_check", Some(t)) => {
                let v = tables.pieces[t].safe_check;
                self.line(&format!("safe_check {arg} {} {}", v.mg, v.eg), comment);
            }
            ("king_danger", _) => self.curve("king_danger", &tables.king_danger, comment),
            ("passed", _) => self.curve("passed", &tables.passed, comment),
            ("term", _) => match Term::named(arg) {
                Some(term) => {
                    let v = tables.term(term);
                    self.line(&format!("term {arg} {} {}", v.mg, v.eg), comment);
                }
                None => self.line(&format!("# (dropped: term {arg})"), comment),
            },
            ("scale", _) => {
                let s = tables.scales;
                let v = match arg {
                    "drawish_margin" => s.drawish_margin,
                    _ => s.drawish_factor,
                };
                self.line(&format!("scale {arg} {v}"), comment);
            }
            _ => self.line(&format!("# (dropped: {key})"), comment),
        }
    }

    /// One line: `text`, then ` comment` if there is one.
    fn line(&mut self, text: &str, comment: &str) {
        self.out += text;
        if !comment.is_empty() {
            self.out.push(' ');
            self.out += comment;
        }
        self.out.push('\n');
    }

    /// Piece `t`'s square table: one `both` block when the halves agree, else two.
    fn pst(&mut self, t: usize, comment: &str) {
        let g = self.def.geometry;
        let pst = &self.tables.pieces[t].pst;
        let letter = self.def.pieces[t].letter;
        let same = (0..g.squares()).all(|sq| pst[sq].mg == pst[sq].eg);
        let halves = halves_to_write(same);
        for (k, (name, half)) in halves.iter().enumerate() {
            self.line(
                &format!("pst {letter} {name}"),
                if k == 0 { comment } else { "" },
            );
            for rank in (0..g.ranks).rev() {
                let row: Vec<String> = (0..g.files)
                    .map(|f| cell(half(pst[rank * g.files + f])))
                    .collect();
                self.out += &row.join("");
                self.out.push('\n');
            }
        }
    }

    /// A one-row table statement `title mg|eg|both` and its row(s); a formula is
    /// written as its own `term`/`mobility` line (the tuner always hands over tables).
    fn curve(&mut self, title: &str, curve: &Curve, comment: &str) {
        let table = match curve {
            Curve::Table(t) => t,
            Curve::Formula(v) => {
                let text = match title {
                    "king_danger" => format!("term king_attack {} {}", v.mg, v.eg),
                    "passed" => format!("term passed_pawn {} {}", v.mg, v.eg),
                    _ => format!("{} {} {}", title.replace("_table", ""), v.mg, v.eg),
                };
                self.line(&text, comment);
                return;
            }
        };
        let same = table.iter().all(|p| p.mg == p.eg);
        let halves = halves_to_write(same);
        for (k, (name, half)) in halves.iter().enumerate() {
            self.line(
                &format!("{title} {name}"),
                if k == 0 { comment } else { "" },
            );
            let row: Vec<String> = table.iter().map(|&p| cell(half(p))).collect();
            self.out += row.join("").trim_start();
            self.out.push('\n');
        }
    }

    /// Writes what the original file lacked and the tables hold (non-zero values).
    fn missing(&mut self) {
        let tables = self.tables;
        let def = self.def;
        let mut keys: Vec<String> = Vec::new();
        for (t, p) in tables.pieces.iter().enumerate() {
            let letter = def.pieces[t].letter;
            keys.push(format!("piece {letter}"));
            if p.pst.iter().any(|v| *v != Pair::default()) {
                keys.push(format!("pst {letter}"));
            }
            if p.mobility != Curve::default() {
                keys.push(format!("mobility {letter}"));
            }
            if p.safe_check != Pair::default() {
                keys.push(format!("safe_check {letter}"));
            }
        }
        for (curve, name) in [
            (&tables.king_danger, "king_danger"),
            (&tables.passed, "passed"),
        ] {
            if *curve != Curve::default() {
                keys.push(name.into());
            }
        }
        for term in Term::ALL {
            if tables.term(term) != Pair::default() {
                keys.push(format!("term {}", term.name()));
            }
        }
        if tables.scales != Scales::default() {
            keys.push("scale drawish_margin".into());
            keys.push("scale drawish_factor".into());
        }
        let mut heading = false;
        for key in keys {
            if !self.done.contains(&key) {
                if !heading {
                    self.out += "\n# Added by sako tune (not in the file it started from):\n";
                    heading = true;
                }
                self.emit(&key, "");
            }
        }
    }
}
