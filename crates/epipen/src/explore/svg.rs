//! The epistemic model drawn as a standalone SVG picture, with no Graphviz: the drawing
//! of the web playground (`drawModel` in epipen-cli's `serve/assets/model.js`) done
//! here, so that front ends without a browser's script (`epipen graph --svg`, the Python
//! package's Jupyter display) show the same picture. One circle per world, labelled with
//! its values (booleans as `1`/`0` side by side when every constant shown is a bool;
//! events that have not happened left out); an edge between two worlds some characters
//! cannot tell apart, in the character's colour (grey for several), labelled with their
//! names; a dashed arrow from a world to each world a character believes most plausible
//! among those it cannot tell from it (for characters whose plausibility is not flat); a
//! legend under the graph. Every world and label is where [`super::layout`] puts it, as
//! in the playground: the same model always gives the same picture.

use std::fmt::Write;

use crate::explore::graph::{Edge, arrows};
use crate::explore::layout::{Drawing, drawing, text_width};
use crate::ir::Program;
use crate::worlds::{Model, Value, show_value};

/// The characters' colours, in declaration order (the playground's).
pub const COLOURS: [&str; 8] = [
    "#2457c5", "#d1480f", "#0a7f5a", "#9b2fae", "#b8860b", "#c2185b", "#00838f", "#5d4037",
];

/// The width, in pixels, of a drawing in a file or a notebook (it scales down to its
/// container).
pub const WIDTH: f64 = 720.0;

/// The legend's font size, and the axis line's (the names of the node labels' values).
const LEGEND_FONT: f64 = 11.0;
const AXIS_FONT: f64 = 10.0;

/// The margin left and right of the legend, and the room its colour swatches take
/// before their text.
const MARGIN: f64 = 8.0;
const SWATCH: f64 = 28.0;

/// `text` in lines of at most `room` pixels at `size` (by [`text_width`]), broken at
/// spaces (a word longer than a line is a line of its own).
fn wrap(text: &str, room: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if !current.is_empty() && text_width(&candidate, size) > room {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        } else {
            current = candidate;
        }
    }
    lines.push(current);
    lines
}

/// A world's label: its largest font size (pixels), the monospace font's advance (in
/// ems) and its lines' height (in ems).
const LABEL_PX: f64 = 10.5;
const CHAR_EM: f64 = 0.6;
const LINE_EM: f64 = 1.15;
/// A world's probability, under its values: this much of the label's size.
const CHANCE_SCALE: f64 = 0.85;

/// A world's label fitted into a circle of `radius`: the font size (at most
/// `LABEL_PX`) and the lines of its `parts` (values, wrapped after their separator
/// `sep`, in as many lines, up to 8, as let the font be largest), with `under` (its
/// probability) as one more line at `CHANCE_SCALE` of the size: the box of all the
/// lines lies within the circle, 3 pixels inside. The playground's `fitLabel`.
pub fn fit_label(
    parts: &[String],
    sep: &str,
    under: Option<&str>,
    radius: f64,
) -> (f64, Vec<String>) {
    let room = radius - 3.0;
    let total = parts.join(sep).chars().count();
    let width = |t: &str| t.chars().count() as f64;
    let mut best: Option<(f64, Vec<String>)> = None;
    for n in 1..=parts.len().clamp(1, 8) {
        // Greedy lines of about total / n characters.
        let target = total.div_ceil(n);
        let mut lines: Vec<Vec<&str>> = Vec::new();
        let mut line: Vec<&str> = Vec::new();
        for part in parts {
            let longer =
                line.join(sep).chars().count() + sep.chars().count() + part.chars().count();
            if !line.is_empty() && longer > target && lines.len() < n - 1 {
                lines.push(std::mem::take(&mut line));
            }
            line.push(part);
        }
        lines.push(line);
        let last = lines.len() - 1;
        let texts: Vec<String> = (lines.iter().enumerate())
            .map(|(k, l)| match k < last {
                true => format!("{}{}", l.join(sep), sep.trim_end()),
                false => l.join(sep),
            })
            .collect();
        let widest = (texts.iter().map(|t| width(t)))
            .chain(under.map(|u| width(u) * CHANCE_SCALE))
            .fold(0.0, f64::max);
        let rows = texts.len() as f64 + under.map_or(0.0, |_| CHANCE_SCALE);
        let (wide, high) = (widest * CHAR_EM / 2.0, rows * LINE_EM / 2.0);
        // The text's box within the circle: its corner on the circle at most.
        let size = LABEL_PX.min(room / wide.hypot(high));
        if best.as_ref().is_none_or(|(b, _)| size > b + 0.01) {
            best = Some((size, texts));
        }
    }
    best.unwrap_or((LABEL_PX, vec![String::new()]))
}

/// The colour of an edge that several characters share.
const SHARED: &str = "#555";

/// The model of `program`'s story as an SVG document titled `title`, at most `width`
/// pixels wide (it scales down to its container).
pub fn svg(
    program: &Program,
    model: &Model,
    actual: Option<usize>,
    title: &str,
    width: f64,
) -> String {
    let n = model.worlds.len();
    let Drawing {
        parts,
        sep,
        bools,
        shown: constants,
        edges,
        layout,
    } = drawing(program, model);
    let arrows = arrows(model);
    let shown = |c: usize, v: Value| show_value(program, program.constants[c].ty, v);
    let world_text = |k: usize| -> String {
        let parts: Vec<String> = (constants.iter())
            .map(|c| {
                let v = model.worlds[k].0[c.0];
                format!("{} = {}", program.constants[c.0].name, shown(c.0, v))
            })
            .collect();
        if parts.is_empty() {
            "(no constants)".into()
        } else {
            parts.join(", ")
        }
    };
    // When the story speaks of chances: each world's probability, under its label.
    let chances: Option<Vec<String>> =
        (model.chances.as_ref()).map(|c| c.iter().map(|q| q.to_string()).collect());
    let radius = layout.radius;
    let points = &layout.points;
    let (span_x, span_y) = (layout.width, layout.height);
    let mid_x = span_x / 2.0;
    let min_y = 0.0;

    // The legend under the graph: the title, then one line per character who joins some
    // worlds, and one for edges several characters share.
    let characters = &program.characters;
    let mut legend: Vec<(Option<&str>, String)> = vec![(None, title.to_string())];
    for (c, character) in characters.iter().enumerate() {
        if edges.iter().any(|e| e.who.len() == 1 && e.who[0].0 == c) {
            legend.push((
                Some(COLOURS[c % COLOURS.len()]),
                format!("{} cannot tell these apart", character.name),
            ));
        }
    }
    if edges.iter().any(|e| e.who.len() > 1) {
        legend.push((Some(SHARED), "several characters".into()));
    }
    if actual.is_some_and(|k| k < n) {
        legend.push((None, "double ring: the actual world".into()));
    }
    if chances.is_some() {
        legend.push((
            None,
            "under each world's values: its probability (the storyteller's)".into(),
        ));
    }
    if !arrows.is_empty() {
        legend.push((
            None,
            "dashed arrows: the worlds a character believes most plausible among those it cannot tell apart".into(),
        ));
    }
    // The legend's lines and the axis line wrap at the drawing's width (`width`, or the
    // graph's when wider), and the drawing widens to fit them: no text is cut off.
    let room = span_x.max(width);
    let mut lines: Vec<(Option<&str>, String)> = Vec::new();
    for (swatch, text) in &legend {
        let indent = if swatch.is_some() { SWATCH } else { 0.0 };
        for (k, piece) in wrap(text, room - 2.0 * MARGIN - indent, LEGEND_FONT)
            .into_iter()
            .enumerate()
        {
            // A wrapped line goes on under its text, without the swatch.
            let indent = if k == 0 { *swatch } else { swatch.map(|_| "") };
            lines.push((indent, piece));
        }
    }
    let axis: Vec<String> = if constants.is_empty() {
        Vec::new()
    } else {
        let names: Vec<&str> = (constants.iter())
            .map(|c| program.constants[c.0].name.as_str())
            .collect();
        let axis = if bools {
            format!("nodes: {} (1: true, 0: false)", names.join(" "))
        } else {
            format!("nodes: ({})", names.join(", "))
        };
        wrap(&axis, room - 2.0 * MARGIN, AXIS_FONT)
    };
    let needed = (lines.iter())
        .map(|(swatch, text)| {
            let indent = if swatch.is_some() { SWATCH } else { 0.0 };
            2.0 * MARGIN + indent + text_width(text, LEGEND_FONT)
        })
        .chain(axis.iter().map(|t| 2.0 * MARGIN + text_width(t, AXIS_FONT)))
        .fold(0.0, f64::max);
    let span_x = span_x.max(needed);
    let min_x = mid_x - span_x / 2.0;
    let line = 16.0;
    let legend_height = line * lines.len() as f64 + 8.0;
    // Room above the graph for the axis line(s), so that they cross no world.
    let top = match axis.len() {
        0 => 0.0,
        k => 13.0 * k as f64 + 6.0,
    };
    let total_y = top + span_y + legend_height;
    let scale = (width / span_x).min(1.0);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{} {} {} {}\" width=\"{}\" \
         height=\"{}\" role=\"img\" aria-label=\"the epistemic model: {n} worlds, {} edges{}\" \
         style=\"max-width: 100%; height: auto; background: #fff\">",
        num(min_x),
        num(min_y - top),
        num(span_x),
        num(total_y),
        num(span_x * scale),
        num(total_y * scale),
        edges.len(),
        if arrows.is_empty() {
            String::new()
        } else {
            format!(", {} belief arrows", arrows.len())
        }
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    out.push_str("<g class=\"edges\" stroke-width=\"1.6\">\n");
    let colour = |e: &Edge| match e.who.as_slice() {
        [one] => COLOURS[one.0 % COLOURS.len()],
        _ => SHARED,
    };
    let who = |e: &Edge| -> String {
        let names: Vec<&str> = (e.who.iter())
            .map(|c| characters[c.0].name.as_str())
            .collect();
        names.join(", ")
    };
    for e in &edges {
        let (a, b) = (points[e.a], points[e.b]);
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\"><title>{}: {} ~ {}</title></line>",
            num(a.0),
            num(a.1),
            num(b.0),
            num(b.1),
            colour(e),
            escape(&who(e)),
            escape(&world_text(e.a)),
            escape(&world_text(e.b))
        );
    }
    if !arrows.is_empty() {
        out.push_str(
            "<defs><marker id=\"belief-head\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" \
             markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">\
             <path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker></defs>\n",
        );
    }
    for a in &arrows {
        // From the world to the edge of the target's circle, bent off the knowledge edge
        // between the same worlds.
        let (p, q) = (points[a.from], points[a.to]);
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let length = match dx.hypot(dy) {
            l if l > 0.0 => l,
            _ => 1.0,
        };
        let end = (
            q.0 - dx / length * (radius + 2.0),
            q.1 - dy / length * (radius + 2.0),
        );
        let bend = 18.0;
        let mid = (
            (p.0 + end.0) / 2.0 - dy / length * bend,
            (p.1 + end.1) / 2.0 + dx / length * bend,
        );
        let colour = match a.who.as_slice() {
            [one] => COLOURS[one.0 % COLOURS.len()],
            _ => SHARED,
        };
        let names: Vec<&str> = (a.who.iter())
            .map(|c| characters[c.0].name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "<path d=\"M {} {} Q {} {} {} {}\" fill=\"none\" stroke=\"{colour}\" \
             stroke-dasharray=\"5 4\" marker-end=\"url(#belief-head)\"><title>{}: in {}, believes {} most plausible</title></path>",
            num(p.0),
            num(p.1),
            num(mid.0),
            num(mid.1),
            num(end.0),
            num(end.1),
            escape(&names.join(", ")),
            escape(&world_text(a.from)),
            escape(&world_text(a.to))
        );
    }
    out.push_str("</g>\n");
    if edges.len() <= crate::explore::layout::LABELLED {
        out.push_str(
            "<g class=\"edge-labels\" font-family=\"system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif\" \
             font-size=\"10\" text-anchor=\"middle\" paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\">\n",
        );
        for (e, at) in edges.iter().zip(&layout.labels) {
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" dominant-baseline=\"central\" fill=\"{}\">{}</text>",
                num(at.0),
                num(at.1),
                colour(e),
                escape(&who(e))
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str(
        "<g class=\"nodes\" font-family=\"ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace\" \
         font-size=\"10.5\" text-anchor=\"middle\">\n",
    );
    for k in 0..n {
        // The actual world: a second ring around its circle.
        let ring = match actual == Some(k) {
            true => format!(
                "<circle class=\"actual\" r=\"{}\" fill=\"none\" stroke=\"#1f2328\" \
                 stroke-width=\"1.2\"/>",
                num(radius + 4.0)
            ),
            false => String::new(),
        };
        // The values in as many lines as let them be largest within the circle, and the
        // probability, if any, as one more line under them, smaller.
        let chance = chances.as_ref().and_then(|c| c.get(k));
        let (size, lines) = fit_label(&parts[k], sep, chance.map(String::as_str), radius);
        let rows = lines.len() as f64 + chance.map_or(0.0, |_| CHANCE_SCALE);
        let top = -(rows - 1.0) / 2.0 * LINE_EM * size;
        let y = |row: f64| top + row * LINE_EM * size;
        let text = match lines.as_slice() {
            [one] if chance.is_none() => format!(
                "<text font-size=\"{}\" dominant-baseline=\"central\">{}</text>",
                num(size),
                escape(one)
            ),
            [one] => format!(
                "<text y=\"{}\" font-size=\"{}\" dominant-baseline=\"central\">{}</text>",
                num(y(0.0)),
                num(size),
                escape(one)
            ),
            _ => {
                let spans: String = (lines.iter().enumerate())
                    .map(|(row, line)| {
                        format!(
                            "<tspan x=\"0\" y=\"{}\">{}</tspan>",
                            num(y(row as f64)),
                            escape(line)
                        )
                    })
                    .collect();
                format!(
                    "<text font-size=\"{}\" dominant-baseline=\"central\">{spans}</text>",
                    num(size)
                )
            }
        };
        let (chance, of) = match chance {
            Some(p) => (
                format!(
                    "<text class=\"probability\" y=\"{}\" dominant-baseline=\"central\" \
                     font-size=\"{}\" fill=\"#57606a\">{}</text>",
                    num(y(lines.len() as f64 - 0.5 + CHANCE_SCALE / 2.0)),
                    num(size * CHANCE_SCALE),
                    escape(p)
                ),
                format!(", probability {p}"),
            ),
            None => (String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "<g transform=\"translate({} {})\">{ring}<circle r=\"{}\" fill=\"#fff\" stroke=\"#1f2328\" \
             stroke-width=\"1.2\"/>{text}{chance}<title>{}{of}{}</title></g>",
            num(points[k].0),
            num(points[k].1),
            num(radius),
            escape(&world_text(k)),
            if actual == Some(k) {
                " (the actual world)"
            } else {
                ""
            }
        );
    }
    out.push_str("</g>\n");
    let sans = "font-family=\"system-ui, 'DejaVu Sans', Helvetica, Arial, sans-serif\"";
    for (k, text) in axis.iter().enumerate() {
        let _ = writeln!(
            out,
            "<text class=\"axis\" x=\"{}\" y=\"{}\" {sans} font-size=\"{AXIS_FONT}\" fill=\"#6b7280\">{}</text>",
            num(min_x + MARGIN),
            num(min_y - top + 16.0 + 13.0 * k as f64),
            escape(text)
        );
    }
    let _ = writeln!(
        out,
        "<g class=\"legend\" {sans} font-size=\"{LEGEND_FONT}\">"
    );
    for (k, (swatch, text)) in lines.iter().enumerate() {
        let y = min_y + span_y + line * (k as f64 + 1.0);
        let x = min_x + MARGIN;
        match swatch {
            Some("") => {
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" fill=\"#1f2328\">{}</text>",
                    num(x + SWATCH),
                    num(y),
                    escape(text)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" fill=\"#1f2328\">{}</text>",
                    num(x),
                    num(y),
                    escape(text)
                );
            }
            Some(colour) => {
                let _ = writeln!(
                    out,
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"3\"/>\
                     <text x=\"{}\" y=\"{}\" fill=\"#1f2328\">{}</text>",
                    num(x),
                    num(y - 4.0),
                    num(x + 22.0),
                    num(y - 4.0),
                    num(x + SWATCH),
                    num(y),
                    escape(text)
                );
            }
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// A coordinate with two decimals, `-0` written `0`.
fn num(x: f64) -> String {
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds::World;

    fn cheryl() -> (Program, Model) {
        let program = crate::compile(
            "characters Albert, Bernard\nint month, day\n\
             announce (month, day) in {(5, 15), (5, 16), (6, 17), (5, 19)}\n\
             Albert learns month\nBernard learns day\n",
            &[],
        )
        .expect("compiles");
        let w = |m, d| World(vec![Value::Int(m), Value::Int(d)]);
        let model = Model {
            chances: None,
            worlds: vec![w(5, 15), w(5, 16), w(5, 19), w(6, 17)],
            before: None,
            ranks: vec![vec![Vec::new(); 4]; 2],
            views: vec![
                vec![
                    vec![Value::Int(5)],
                    vec![Value::Int(5)],
                    vec![Value::Int(5)],
                    vec![Value::Int(6)],
                ],
                vec![
                    vec![Value::Int(15)],
                    vec![Value::Int(16)],
                    vec![Value::Int(19)],
                    vec![Value::Int(17)],
                ],
            ],
        };
        (program, model)
    }

    #[test]
    fn the_picture_is_deterministic_and_complete() {
        let (program, model) = cheryl();
        let picture = svg(&program, &model, None, "at the end: 4 worlds", 720.0);
        assert_eq!(
            picture,
            svg(&program, &model, None, "at the end: 4 worlds", 720.0)
        );
        assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(picture.ends_with("</svg>\n"));
        // Four worlds, three Albert edges (the May dates), no Bernard edge.
        assert_eq!(picture.matches("<circle").count(), 4);
        assert_eq!(picture.matches("stroke=\"#2457c5\"><title>").count(), 3);
        assert!(picture.contains(">5, 15</text>"));
        assert!(picture.contains("<title>month = 6, day = 17</title>"));
        assert!(picture.contains("Albert cannot tell these apart"));
        assert!(!picture.contains("Bernard cannot tell"));
        assert!(picture.contains("nodes: (month, day)"));
    }

    #[test]
    fn the_actual_world_has_a_double_ring() {
        let (program, model) = cheryl();
        let plain = svg(&program, &model, None, "t", 720.0);
        assert!(!plain.contains("class=\"actual\"") && !plain.contains("the actual world"));
        let marked = svg(&program, &model, Some(1), "t", 720.0);
        assert_eq!(marked.matches("class=\"actual\"").count(), 1);
        assert!(marked.contains("<title>month = 5, day = 16 (the actual world)</title>"));
        assert!(marked.contains("double ring: the actual world"));
    }

    #[test]
    fn worlds_are_labelled_with_their_probabilities() {
        let (program, mut model) = cheryl();
        let plain = svg(&program, &model, None, "t", 720.0);
        assert!(!plain.contains("class=\"probability\"") && !plain.contains("probability"));
        let q = |n: i64, d: i64| crate::engine::BigRational::new(n.into(), d.into());
        model.chances = Some(vec![q(1, 6), q(1, 6), q(1, 3), q(1, 3)]);
        let picture = svg(&program, &model, Some(2), "t", 720.0);
        assert_eq!(picture.matches("class=\"probability\"").count(), 4);
        assert!(picture.contains(">1/6</text>") && picture.contains(">1/3</text>"));
        // The values above the probability, both inside the circle.
        assert!(picture.contains(
            "<text y=\"-5.13\" font-size=\"10.5\" dominant-baseline=\"central\">5, 19</text>\
             <text class=\"probability\" y=\"6.04\" dominant-baseline=\"central\" font-size=\"8.92\" \
             fill=\"#57606a\">1/3</text>"
        ));
        assert_eq!(outside(&picture), Vec::<String>::new());
        assert!(
            picture
                .contains("<title>month = 5, day = 19, probability 1/3 (the actual world)</title>")
        );
        assert!(picture.contains("its probability (the storyteller's)"));
    }

    /// The lines of the worlds' labels that reach out of their circles: for each line
    /// (a `<text>` or a `<tspan>` of one, or a probability) at `y` in a font of `size`,
    /// the corner of its box (by the monospace advance [`CHAR_EM`] and the line height
    /// [`LINE_EM`]) must be within the circle's radius.
    fn outside(picture: &str) -> Vec<String> {
        let attribute = |piece: &str, name: &str| -> Option<f64> {
            let at = piece.find(&format!(" {name}=\""))? + name.len() + 3;
            piece[at..].split('"').next()?.parse().ok()
        };
        let mut out = Vec::new();
        let nodes = picture.split("<g class=\"nodes\"").nth(1).unwrap();
        let nodes = nodes.split("</g>\n</g>\n").next().unwrap();
        for node in nodes.split("<g transform=").skip(1) {
            let circle = node.split("<circle r=").nth(1).unwrap();
            let r: f64 = circle[1..].split('"').next().unwrap().parse().unwrap();
            for text in node.split("<text").skip(1) {
                let size = attribute(text, "font-size").unwrap();
                let head = text.split('>').next().unwrap();
                let lines: Vec<(f64, &str)> = if text.contains("<tspan") {
                    (text.split("<tspan").skip(1))
                        .map(|t| (attribute(t, "y").unwrap(), t.split('>').nth(1).unwrap()))
                        .map(|(y, t)| (y, t.split('<').next().unwrap()))
                        .collect()
                } else {
                    let body = text.split('>').nth(1).unwrap().split('<').next().unwrap();
                    vec![(attribute(head, "y").unwrap_or(0.0), body)]
                };
                for (y, line) in lines {
                    let wide = line.chars().count() as f64 * CHAR_EM * size / 2.0;
                    let high = y.abs() + LINE_EM * size / 2.0;
                    if wide.hypot(high) > r + 0.01 {
                        out.push(format!("`{line}` at y {y}, {size} px, in r {r}"));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn long_labels_fit_in_their_circles() {
        // The Russian cards: seven owners a world, each value a name. On one line at
        // 10.5 px the label is 41 characters, 130 pixels wide, in circles of 48.
        let mut source =
            String::from("characters Alice, Bob, Cath\nenum Who { alice, bob, cath }\n");
        for i in 0..7 {
            source.push_str(&format!("Who owner{i}\n"));
        }
        let program = crate::compile(&source, &[]).expect("compiles");
        let hands: [[i64; 7]; 4] = [
            [0, 0, 0, 1, 1, 1, 2],
            [0, 1, 1, 0, 0, 1, 2],
            [1, 0, 1, 0, 1, 0, 2],
            [1, 1, 0, 1, 0, 0, 2],
        ];
        let worlds: Vec<World> = (hands.iter())
            .map(|h| World(h.iter().map(|&o| Value::Int(o)).collect()))
            .collect();
        let model = Model {
            chances: None,
            before: None,
            ranks: vec![vec![Vec::new(); 4]; 3],
            views: vec![
                (0..4).map(|k| vec![Value::Int(k)]).collect(),
                (0..4).map(|k| vec![Value::Int(k)]).collect(),
                vec![vec![]; 4],
            ],
            worlds,
        };
        let picture = svg(&program, &model, Some(0), "t", 720.0);
        assert_eq!(picture.matches("<circle r=").count(), 4);
        assert_eq!(outside(&picture), Vec::<String>::new(), "{picture}");
        // Wrapped after a comma: five lines of the first world's seven owners, at the
        // largest size.
        let first = "<text font-size=\"10.5\" dominant-baseline=\"central\">\
                     <tspan x=\"0\" y=\"-24.15\">alice,</tspan><tspan x=\"0\" y=\"-12.07\">alice,</tspan>\
                     <tspan x=\"0\" y=\"0\">alice,</tspan><tspan x=\"0\" y=\"12.07\">bob, bob,</tspan>\
                     <tspan x=\"0\" y=\"24.15\">bob, cath</tspan></text>";
        assert!(picture.contains(first), "{picture}");
        // No two circles overlap.
        let centres: Vec<(f64, f64)> = (picture.split("<g transform=\"translate(").skip(1))
            .map(|g| {
                let xy: Vec<f64> = (g.split(')').next().unwrap().split(' '))
                    .map(|v| v.parse().unwrap())
                    .collect();
                (xy[0], xy[1])
            })
            .collect();
        for (i, a) in centres.iter().enumerate() {
            for b in &centres[i + 1..] {
                assert!((a.0 - b.0).hypot(a.1 - b.1) > 2.0 * 52.0, "{a:?} {b:?}");
            }
        }
        // Probabilities, too.
        let q = |n: i64, d: i64| crate::engine::BigRational::new(n.into(), d.into());
        let mut chances = model.clone();
        chances.chances = Some(vec![q(1, 7), q(2, 7), q(3, 70), q(37, 70)]);
        let picture = svg(&program, &chances, None, "t", 720.0);
        assert_eq!(picture.matches("class=\"probability\"").count(), 4);
        assert_eq!(outside(&picture), Vec::<String>::new(), "{picture}");
    }

    #[test]
    fn a_label_is_fitted_in_as_many_lines_as_make_it_largest() {
        let parts = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // Short: one line at the largest size.
        assert_eq!(
            fit_label(&parts(&["5", "15"]), ", ", None, 22.5),
            (LABEL_PX, vec!["5, 15".to_string()])
        );
        // Booleans side by side, broken into two lines when that is larger.
        let (size, lines) = fit_label(&parts(&["1"; 12]), "", None, 20.0);
        assert_eq!(lines, ["1111", "1111", "1111"]);
        assert!(size > 7.0 && size < LABEL_PX, "{size}");
    }

    #[test]
    fn beliefs_are_dashed_arrows() {
        let (program, mut model) = cheryl();
        // Albert finds May 16 the most plausible of the May dates.
        model.ranks[0] = vec![vec![1], vec![0], vec![1], vec![0]];
        let picture = svg(&program, &model, None, "t", 720.0);
        assert_eq!(picture.matches("stroke-dasharray=\"5 4\"").count(), 2);
        assert!(picture.contains("<title>Albert: in month = 5, day = 15, believes month = 5, day = 16 most plausible</title>"));
        assert!(picture.contains("2 belief arrows"));
        assert!(picture.contains("dashed arrows: the worlds a character believes most plausible"));
        assert!(!svg(&program, &cheryl().1, None, "t", 720.0).contains("belief"));
    }

    /// The viewBox's left and right, and each text's left and its width by
    /// [`text_width`] at its font size (the legend's, or its own).
    type Texts = Vec<(f64, f64, String)>;

    fn texts(picture: &str) -> ((f64, f64), Texts) {
        let view = picture.split("viewBox=\"").nth(1).unwrap();
        let view: Vec<f64> = (view.split('"').next().unwrap().split(' '))
            .map(|v| v.parse().unwrap())
            .collect();
        let legend = picture.split("<g class=\"legend\"").nth(1).unwrap();
        let axis = picture.split("<text class=\"axis\"").skip(1);
        let mut out = Vec::new();
        for (piece, size) in (legend.split("<text ").skip(1).map(|p| (p, LEGEND_FONT)))
            .chain(axis.map(|p| (p, AXIS_FONT)))
        {
            let x: f64 = piece
                .split("x=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let text = piece.split('>').nth(1).unwrap().split('<').next().unwrap();
            out.push((x, text_width(text, size), text.to_string()));
        }
        ((view[0], view[0] + view[2]), out)
    }

    #[test]
    fn the_legend_fits_in_the_picture() {
        // Long names, each character's own edges, beliefs: the legend is wider than the
        // 480 units of a small graph, and its long lines wrap at the drawing's width.
        let program = crate::compile(
            "characters Maximilian_the_Magnificent_Astronomer, Bernadette_the_Baker_of_Bordeaux, \
             Cornelius_Who_Counts_Every_Coin_Twice\nint month, day\n\
             announce (month, day) in {(5, 15), (5, 16), (6, 16)}\n\
             Maximilian_the_Magnificent_Astronomer learns month\n\
             Bernadette_the_Baker_of_Bordeaux learns day\n",
            &[],
        )
        .expect("compiles");
        let w = |m, d| World(vec![Value::Int(m), Value::Int(d)]);
        let model = Model {
            chances: None,
            worlds: vec![w(5, 15), w(5, 16), w(6, 16)],
            before: None,
            ranks: vec![
                vec![vec![1], vec![0], vec![0]],
                vec![Vec::new(); 3],
                vec![Vec::new(); 3],
            ],
            views: vec![
                vec![
                    vec![Value::Int(5)],
                    vec![Value::Int(5)],
                    vec![Value::Int(6)],
                ],
                vec![
                    vec![Value::Int(15)],
                    vec![Value::Int(16)],
                    vec![Value::Int(16)],
                ],
                vec![
                    vec![Value::Int(1)],
                    vec![Value::Int(2)],
                    vec![Value::Int(1)],
                ],
            ],
        };
        let title = "at the end of a story whose title goes on and on: after line 12, round 3, \
                     3 worlds, one of them the actual one, and more words than a line holds";
        for width in [720.0, 300.0] {
            let picture = svg(&program, &model, None, title, width);
            let ((left, right), texts) = texts(&picture);
            assert!(texts.len() >= 6, "{picture}");
            for (x, w, text) in &texts {
                assert!(
                    *x >= left && x + w <= right,
                    "`{text}` at {x}, {w} wide, out of {left}..{right}"
                );
            }
            assert!(
                picture.contains(
                    ">Maximilian_the_Magnificent_Astronomer cannot tell these apart</text>"
                )
            );
            assert!(
                picture.contains(
                    ">Cornelius_Who_Counts_Every_Coin_Twice cannot tell these apart</text>"
                )
            );
            // The title wraps: no line of it is the whole.
            assert!(!picture.contains(&format!(">{title}</text>")));
            assert!(picture.contains(">dashed arrows: the worlds a character believes"));
        }
    }

    #[test]
    fn wrapping_breaks_at_spaces() {
        assert_eq!(wrap("a b c", 1000.0, 11.0), ["a b c"]);
        assert_eq!(
            wrap("aaaa bbbb cc", text_width("aaaa bbbb", 11.0), 11.0),
            ["aaaa bbbb", "cc"]
        );
        assert_eq!(wrap("longword x", 1.0, 11.0), ["longword", "x"]);
    }

    #[test]
    fn numbers_are_short_and_text_is_escaped() {
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(3.0), "3");
        assert_eq!(escape("a < b & \"c\""), "a &lt; b &amp; &quot;c&quot;");
    }
}
