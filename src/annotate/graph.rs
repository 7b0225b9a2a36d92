//! The evaluation graph of an annotated game as SVG, drawn with `plotters` (its SVG
//! backend only): the value of each move from White's point of view in pawns,
//! clamped to ±10 (a mate at the edge), against the ply, with the `?!`, `?` and `??`
//! moves marked.

use plotters::prelude::*;

use super::analysis::AnnotatedGame;
use super::judge::{pawns, Judgement};

/// The graph's size in pixels.
pub const SIZE: (u32, u32) = (900, 380);
/// Scores beyond this many pawns are drawn at the edge.
pub const CLAMP_PAWNS: f64 = 10.0;

/// Why a graph could not be drawn (plotters' message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError(pub String);

impl std::fmt::Display for GraphError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot draw the graph: {}", self.0)
    }
}

impl std::error::Error for GraphError {}

fn err(e: impl std::fmt::Display) -> GraphError {
    GraphError(e.to_string())
}

/// The colour of a verdict's mark.
fn mark_colour(j: Judgement) -> RGBColor {
    match j {
        Judgement::Inaccuracy => RGBColor(230, 180, 0),
        Judgement::Mistake => RGBColor(240, 110, 0),
        Judgement::Blunder => RGBColor(210, 0, 0),
    }
}

/// `White - Black, variant (game n)` from the tags.
fn title(g: &AnnotatedGame) -> String {
    let name = |tag: &str| g.pgn.tag(tag).unwrap_or("?").to_string();
    format!(
        "{} - {}, {} (game {})",
        name("White"),
        name("Black"),
        g.variant,
        g.number
    )
}

/// The graph of `g` as SVG text.
pub fn render(g: &AnnotatedGame) -> Result<String, GraphError> {
    let points: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(
            g.notes
                .iter()
                .enumerate()
                .map(|(i, n)| ((i + 1) as f64, pawns(n.score, CLAMP_PAWNS))),
        )
        .collect();
    let plies = g.notes.len().max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title(g), ("sans-serif", 20))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..plies, -CLAMP_PAWNS..CLAMP_PAWNS)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("ply")
            .y_desc("pawns for White")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:+.0}"))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (plies, 0.0)], BLACK.mix(0.4)))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(points.clone(), BLUE.stroke_width(2)))
            .map_err(err)?
            .label("value of the move")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLUE.stroke_width(2)));
        for j in [
            Judgement::Inaccuracy,
            Judgement::Mistake,
            Judgement::Blunder,
        ] {
            let colour = mark_colour(j);
            let marks = g
                .notes
                .iter()
                .enumerate()
                .filter(|(_, n)| n.judgement == Some(j));
            chart
                .draw_series(marks.map(|(i, _)| Circle::new(points[i + 1], 5, colour.filled())))
                .map_err(err)?
                .label(j.glyph())
                .legend(move |(x, y)| Circle::new((x + 8, y), 5, colour.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
