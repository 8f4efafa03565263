//! Where each world of a model is drawn: the one layout every front end draws (the
//! playground draws the positions `/api/graph` sends, `epipen graph --svg` and the
//! Python package's Jupyter display draw them in [`super::svg`]).
//!
//! Each piece of the model (the worlds joined by edges) is laid out on its own by the
//! `force_graph` crate's simulation (worlds repel each other, edges pull their ends
//! together), started from a circle, with a fixed number of steps: the same model always
//! gives the same picture. The piece is then scaled so that its edges are long enough
//! for their labels between the circles, pushed apart where two circles come closer than
//! [`GAP`], and turned to lie wider than tall; the pieces are packed side by side in
//! rows (shelf packing of their bounding boxes), the largest first, and each edge's label
//! is put where it covers no circle and no other label, when there is such a place along
//! the edge.

use force_graph::{EdgeData, ForceGraph, NodeData, SimulationParameters};

use crate::explore::graph::{Edge, edges};
use crate::ir::{ConstId, Program, Ty};
use crate::worlds::{Model, Value, show_value};

/// The least room between two circles.
pub const GAP: f64 = 16.0;

/// The room around the drawing and between two pieces (more than [`GAP`]).
const MARGIN: f64 = 20.0;

/// The shape the packing aims at: as wide as this times its height.
const ASPECT: f64 = 1.6;

/// The least size of a drawing, so that a few worlds are not drawn huge.
const MIN_WIDTH: f64 = 480.0;
const MIN_HEIGHT: f64 = 200.0;

/// An edge label's height (its font is 10 pixels).
const LABEL_HEIGHT: f64 = 12.0;

/// The steps of a piece's simulation, and each step's time.
const STEPS: usize = 400;
const DT: f32 = 0.02;

/// A model drawn: its circles' radius, the drawing's size, each world's centre and each
/// edge's label's centre (in the order the edges were given), in pixels from the
/// drawing's top left corner.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub radius: f64,
    pub width: f64,
    pub height: f64,
    pub points: Vec<(f64, f64)>,
    pub labels: Vec<(f64, f64)>,
}

/// What a model's drawing shows and where: each world's values as drawn (booleans as `1`
/// and `0` when every constant shown is a bool, joined by `sep`), the constants shown
/// (events that have not happened are left out), the edges, and the layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    pub parts: Vec<Vec<String>>,
    pub sep: &'static str,
    pub bools: bool,
    pub shown: Vec<ConstId>,
    pub edges: Vec<Edge>,
    pub layout: Layout,
}

/// The font size of the edges' labels (pixels).
pub const EDGE_FONT: f64 = 10.0;

/// The model of `program`'s story as drawn: the one computation of every front end's
/// picture.
pub fn drawing(program: &Program, model: &Model) -> Drawing {
    let n = model.worlds.len();
    let edges = edges(model);
    // The constants some world shows (an event's occurrence before it happened: none).
    let shown: Vec<ConstId> = (0..program.constants.len())
        .map(ConstId)
        .filter(|&c| model.worlds.iter().any(|w| program.shows(c, w.0[c.0])))
        .collect();
    let bools =
        n > 0 && !shown.is_empty() && shown.iter().all(|c| program.constants[c.0].ty == Ty::Bool);
    let sep = if bools { "" } else { ", " };
    let parts: Vec<Vec<String>> = (model.worlds.iter())
        .map(|w| {
            (shown.iter())
                .map(|&c| match bools {
                    true => (if w.0[c.0] == Value::Bool(true) {
                        "1"
                    } else {
                        "0"
                    })
                    .to_string(),
                    false => show_value(program, program.constants[c.0].ty, w.0[c.0]),
                })
                .collect()
        })
        .collect();
    let longest = (parts.iter().map(|p| p.join(sep).chars().count()))
        .chain((model.chances.iter().flatten()).map(|q| q.to_string().chars().count()))
        .max()
        .unwrap_or(0);
    let radius = radius(longest);
    let labelled: Vec<(usize, usize, f64)> = (edges.iter())
        .map(|e| {
            let names: Vec<&str> = (e.who.iter())
                .map(|c| program.characters[c.0].name.as_str())
                .collect();
            (e.a, e.b, text_width(&names.join(", "), EDGE_FONT))
        })
        .collect();
    let layout = layout(n, &labelled, radius);
    Drawing {
        parts,
        sep,
        bools,
        shown,
        edges,
        layout,
    }
}

/// How wide `text` is drawn at `size` pixels, at most: a sans-serif font's widest
/// letters (capitals, `m`, `w`) are about 0.9 em, its average about 0.55 em; 0.62 em a
/// character covers English text of mixed case.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * 0.62 * size
}

/// The radius of the worlds' circles for labels of at most `longest` characters (their
/// values on one line, or a probability): 16 to 48 pixels.
pub fn radius(longest: usize) -> f64 {
    (6.0 + 3.3 * longest.max(1) as f64).clamp(16.0, 48.0)
}

/// The layout of `n` worlds of circles of `radius`, joined by `edges` (two worlds, and
/// the width of the edge's label in pixels).
pub fn layout(n: usize, edges: &[(usize, usize, f64)], radius: f64) -> Layout {
    // (Labels are drawn for at most LABELLED edges: more need no room.)
    let widest = match edges.len() <= LABELLED {
        true => edges.iter().map(|e| e.2).fold(0.0, f64::max),
        false => 0.0,
    };
    // An edge is long enough for its label between its two circles.
    let ideal = (2.0 * radius + widest + 2.0 * GAP).max(2.6 * radius);
    let pieces = pieces(n, edges);
    let mut boxes: Vec<Laid> = Vec::new();
    for piece in pieces {
        let local: Vec<(usize, usize)> = (edges.iter())
            .filter_map(|&(a, b, _)| {
                let i = piece.iter().position(|&w| w == a)?;
                let j = piece.iter().position(|&w| w == b)?;
                Some((i, j))
            })
            .collect();
        // From a few orders of the worlds around the starting circle (a small piece),
        // the drawing with the fewest crossings of edges.
        let orders = match piece.len() <= SMALL {
            true => vec![
                search_order(piece.len(), &local),
                (0..piece.len()).collect(),
            ],
            false => vec![(0..piece.len()).collect()],
        };
        let mut best: Option<(usize, Vec<(f64, f64)>)> = None;
        for order in orders {
            let mut points = arrange(&order, &local, ideal);
            // Worlds off the edges of others (in a small piece: a large one's edges are
            // too many to draw their labels).
            let rounds = if piece.len() <= SMALL { 8 } else { 0 };
            for _ in 0..rounds {
                clear_edges(&mut points, &local, radius + GAP);
                separate(&mut points, 2.0 * radius + GAP);
            }
            separate(&mut points, 2.0 * radius + GAP);
            let crossed = crossings(&points, &local);
            if best.as_ref().is_none_or(|(c, _)| crossed < *c) {
                best = Some((crossed, points));
            }
        }
        let mut points = best.map(|(_, p)| p).unwrap_or_default();
        let (lo_x, hi_x, lo_y, hi_y) = bounds(&points);
        // Wider than tall.
        if hi_y - lo_y > hi_x - lo_x + 1e-9 {
            for p in &mut points {
                *p = (p.1, p.0);
            }
        }
        let (lo_x, hi_x, lo_y, hi_y) = bounds(&points);
        for p in &mut points {
            *p = (p.0 - lo_x + radius, p.1 - lo_y + radius);
        }
        let (w, h) = (hi_x - lo_x + 2.0 * radius, hi_y - lo_y + 2.0 * radius);
        boxes.push((piece, points, w, h));
    }
    // The largest pieces first (the first world first among equals).
    boxes.sort_by(|a, b| {
        (b.0.len().cmp(&a.0.len()))
            .then(b.3.total_cmp(&a.3))
            .then(a.0[0].cmp(&b.0[0]))
    });
    let area: f64 = boxes.iter().map(|b| (b.2 + MARGIN) * (b.3 + MARGIN)).sum();
    let row_width = (area * ASPECT)
        .sqrt()
        .max(boxes.iter().map(|b| b.2).fold(0.0, f64::max));
    // Shelves: left to right, a new row when the next piece would go past the width.
    let mut rows: Vec<(Vec<usize>, f64, f64)> = Vec::new(); // pieces, width, height
    for (k, b) in boxes.iter().enumerate() {
        match rows.last_mut() {
            Some(row) if row.1 + MARGIN + b.2 <= row_width + 1e-9 => {
                row.0.push(k);
                row.1 += MARGIN + b.2;
                row.2 = row.2.max(b.3);
            }
            _ => rows.push((vec![k], b.2, b.3)),
        }
    }
    let inner_width = rows.iter().map(|r| r.1).fold(0.0, f64::max);
    let inner_height =
        rows.iter().map(|r| r.2).sum::<f64>() + MARGIN * rows.len().saturating_sub(1) as f64;
    let width = (inner_width + 2.0 * MARGIN).max(MIN_WIDTH);
    let height = (inner_height + 2.0 * MARGIN).max(MIN_HEIGHT);
    let mut points = vec![(0.0, 0.0); n];
    let mut y = (height - inner_height) / 2.0;
    for (pieces, row_w, row_h) in &rows {
        // Each row centred, each piece centred in the row's height.
        let mut x = (width - row_w) / 2.0;
        for &k in pieces {
            let (worlds, local, w, h) = &boxes[k];
            let top = y + (row_h - h) / 2.0;
            for (&world, p) in worlds.iter().zip(local) {
                points[world] = (round(x + p.0), round(top + p.1));
            }
            x += w + MARGIN;
        }
        y += row_h + MARGIN;
    }
    // Labels are drawn for at most LABELLED edges: more are placed at their middles.
    let labels = match edges.len() <= LABELLED {
        true => place_labels(&points, edges, radius),
        false => (edges.iter())
            .map(|&(a, b, _)| {
                let (p, q) = (points[a], points[b]);
                (round((p.0 + q.0) / 2.0), round((p.1 + q.1) / 2.0))
            })
            .collect(),
    };
    Layout {
        radius,
        width: round(width),
        height: round(height),
        points,
        labels,
    }
}

/// A piece laid out: its worlds, their positions within its box, the box's width and
/// height.
type Laid = (Vec<usize>, Vec<(f64, f64)>, f64, f64);

/// The pieces of the graph: the worlds joined by edges, each piece sorted, in the order
/// of their first world.
fn pieces(n: usize, edges: &[(usize, usize, f64)]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], i: usize) -> usize {
        let mut root = i;
        while parent[root] != root {
            root = parent[root];
        }
        parent[i] = root;
        root
    }
    for &(a, b, _) in edges {
        if a < n && b < n {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for w in 0..n {
        let root = find(&mut parent, w);
        if index[root] == usize::MAX {
            index[root] = out.len();
            out.push(Vec::new());
        }
        out[index[root]].push(w);
    }
    out
}

/// The most edges whose labels are drawn (and placed off the circles).
pub const LABELLED: usize = 60;

/// The most worlds of a piece laid out from several starts.
const SMALL: usize = 40;

/// The worlds of a piece in the order a depth-first search from its first world meets
/// them (neighbours in order): around a circle, a cycle of the graph stays one.
fn search_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        next[a].push(b);
        next[b].push(a);
    }
    for list in &mut next {
        list.sort_unstable();
    }
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        let mut stack = vec![root];
        while let Some(w) = stack.pop() {
            if std::mem::replace(&mut seen[w], true) {
                continue;
            }
            order.push(w);
            stack.extend(next[w].iter().rev().filter(|&&v| !seen[v]));
        }
    }
    order
}

/// How many pairs of edges (with no end in common) cross.
fn crossings(points: &[(f64, f64)], edges: &[(usize, usize)]) -> usize {
    let side = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        ((q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)).signum()
    };
    let mut count = 0;
    for (i, &(a, b)) in edges.iter().enumerate() {
        for &(c, d) in &edges[i + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            let (p, q, r, s) = (points[a], points[b], points[c], points[d]);
            if side(p, q, r) * side(p, q, s) < 0.0 && side(r, s, p) * side(r, s, q) < 0.0 {
                count += 1;
            }
        }
    }
    count
}

/// The positions of a piece of worlds joined by `edges` (indices into the piece),
/// started from a circle of the worlds in `order`, its edges about `ideal` long.
fn arrange(order: &[usize], edges: &[(usize, usize)], ideal: f64) -> Vec<(f64, f64)> {
    let n = order.len();
    let circle = |k: usize, r: f64| {
        (0..k)
            .map(|i| {
                let angle =
                    std::f64::consts::TAU * i as f64 / k as f64 - std::f64::consts::FRAC_PI_2;
                (angle.cos() * r, angle.sin() * r)
            })
            .collect::<Vec<_>>()
    };
    match n {
        0 => return Vec::new(),
        1 => return vec![(0.0, 0.0)],
        2 => return vec![(0.0, 0.0), (ideal, 0.0)],
        3 => return circle(3, ideal / 3f64.sqrt()),
        _ => {}
    }
    let mut graph: ForceGraph = ForceGraph::new(SimulationParameters::default());
    let around = circle(n, 100.0 * (n as f64).sqrt());
    let mut start = vec![(0.0, 0.0); n];
    for (k, &w) in order.iter().enumerate() {
        start[w] = around[k];
    }
    let nodes: Vec<_> = (start.iter())
        .map(|&(x, y)| {
            graph.add_node(NodeData {
                x: x as f32,
                y: y as f32,
                ..NodeData::default()
            })
        })
        .collect();
    for &(a, b) in edges {
        graph.add_edge(nodes[a], nodes[b], EdgeData::default());
    }
    // Fewer steps for a large piece (each step takes every pair of worlds).
    let steps = if n > 150 { STEPS / 4 } else { STEPS };
    for _ in 0..steps {
        graph.update(DT);
    }
    let mut points = vec![(0.0, 0.0); n];
    graph.visit_nodes(|node| {
        if let Some(k) = nodes.iter().position(|&i| i == node.index()) {
            points[k] = (f64::from(node.x()), f64::from(node.y()));
        }
    });
    // Scaled so that the shortest edge is `ideal` long (room for its label), or half
    // the edges' mean when one is shorter still.
    let lengths: Vec<f64> = (edges.iter())
        .map(|&(a, b)| (points[a].0 - points[b].0).hypot(points[a].1 - points[b].1))
        .collect();
    let mean = lengths.iter().sum::<f64>() / lengths.len().max(1) as f64;
    let shortest = lengths
        .iter()
        .copied()
        .fold(f64::MAX, f64::min)
        .max(mean / 2.0);
    if shortest.is_finite() && shortest > 1e-6 {
        let scale = ideal / shortest;
        for p in &mut points {
            *p = (p.0 * scale, p.1 * scale);
        }
    }
    if points.iter().any(|p| !p.0.is_finite() || !p.1.is_finite()) {
        // The simulation went astray: the circle then.
        return circle(n, ideal * n as f64 / std::f64::consts::TAU);
    }
    points
}

/// Pushes apart the circles closer than `least` (centre to centre), a few rounds over
/// every pair.
fn separate(points: &mut [(f64, f64)], least: f64) {
    let n = points.len();
    for _ in 0..200 {
        let mut moved = false;
        for i in 0..n {
            for j in i + 1..n {
                let (dx, dy) = (points[j].0 - points[i].0, points[j].1 - points[i].1);
                let d = dx.hypot(dy);
                if d + 1e-6 >= least {
                    continue;
                }
                moved = true;
                // Apart along the line between them (two on one spot: by their indices).
                let (ux, uy) = match d > 1e-9 {
                    true => (dx / d, dy / d),
                    false => {
                        let angle = (i * 7 + j * 13) as f64;
                        (angle.cos(), angle.sin())
                    }
                };
                let push = (least - d) / 2.0 + 0.01;
                points[i] = (points[i].0 - ux * push, points[i].1 - uy * push);
                points[j] = (points[j].0 + ux * push, points[j].1 + uy * push);
            }
        }
        if !moved {
            return;
        }
    }
}

/// Moves the worlds off the edges that pass closer than `clearance` to their centre (an
/// edge between two other worlds), and those edges' ends the other way, a few rounds.
fn clear_edges(points: &mut [(f64, f64)], edges: &[(usize, usize)], clearance: f64) {
    for _ in 0..30 {
        let mut moved = false;
        for w in 0..points.len() {
            for &(a, b) in edges {
                if a == w || b == w {
                    continue;
                }
                let (p, q, c) = (points[a], points[b], points[w]);
                let (dx, dy) = (q.0 - p.0, q.1 - p.1);
                let length2 = dx * dx + dy * dy;
                if length2 < 1e-9 {
                    continue;
                }
                let t = (((c.0 - p.0) * dx + (c.1 - p.1) * dy) / length2).clamp(0.0, 1.0);
                let near = (p.0 + t * dx, p.1 + t * dy);
                let (ox, oy) = (c.0 - near.0, c.1 - near.1);
                let d = ox.hypot(oy);
                if d >= clearance {
                    continue;
                }
                moved = true;
                // Away from the edge, across it (on it: to one side, by its direction).
                let (ux, uy) = match d > 1e-9 {
                    true => (ox / d, oy / d),
                    false => (-dy / length2.sqrt(), dx / length2.sqrt()),
                };
                let push = (clearance - d) / 2.0 + 0.01;
                points[w] = (c.0 + ux * push, c.1 + uy * push);
                for end in [a, b] {
                    let share = if end == a { 1.0 - t } else { t };
                    let e = points[end];
                    points[end] = (e.0 - ux * push * share, e.1 - uy * push * share);
                }
            }
        }
        if !moved {
            return;
        }
    }
}

/// The least and greatest x and y of `points`.
fn bounds(points: &[(f64, f64)]) -> (f64, f64, f64, f64) {
    points.iter().fold(
        (f64::MAX, f64::MIN, f64::MAX, f64::MIN),
        |(lx, hx, ly, hy), p| (lx.min(p.0), hx.max(p.0), ly.min(p.1), hy.max(p.1)),
    )
}

/// Where each edge's label goes: along the edge, the first place (from its middle
/// outwards) whose box covers no circle and no label placed before; when there is none,
/// the place that covers the fewest.
fn place_labels(
    points: &[(f64, f64)],
    edges: &[(usize, usize, f64)],
    radius: f64,
) -> Vec<(f64, f64)> {
    let mut placed: Vec<(f64, f64, f64)> = Vec::new(); // centre and half width
    let mut out = Vec::new();
    let hh = LABEL_HEIGHT / 2.0;
    for &(a, b, width) in edges {
        let (p, q) = (points[a], points[b]);
        let hw = width / 2.0 + 2.0;
        let mut best: Option<((f64, f64), usize)> = None;
        for t in [0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73] {
            let c = (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t);
            let circles = (points.iter())
                .filter(|w| {
                    // The box's nearest point to the circle's centre.
                    let nx = w.0.clamp(c.0 - hw, c.0 + hw);
                    let ny = w.1.clamp(c.1 - hh, c.1 + hh);
                    (nx - w.0).hypot(ny - w.1) < radius + 1.0
                })
                .count();
            let labels = (placed.iter())
                .filter(|l| (l.0 - c.0).abs() < l.2 + hw && (l.1 - c.1).abs() < 2.0 * hh)
                .count();
            let clashes = 2 * circles + labels;
            if best.is_none_or(|(_, n)| clashes < n) {
                best = Some((c, clashes));
            }
            if clashes == 0 {
                break;
            }
        }
        let c = best.map_or(((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0), |(c, _)| c);
        placed.push((c.0, c.1, hw));
        out.push((round(c.0), round(c.1)));
    }
    out
}

/// A coordinate to two decimals (what the drawings write).
fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hypercube of `d` dimensions: worlds are numbers of `d` bits, and an edge joins
    /// two that differ in one bit (the muddy children's model).
    fn cube(d: usize) -> (usize, Vec<(usize, usize, f64)>) {
        let n = 1 << d;
        let mut edges = Vec::new();
        for a in 0..n {
            for bit in 0..d {
                let b = a ^ (1 << bit);
                if a < b {
                    edges.push((a, b, 50.0));
                }
            }
        }
        (n, edges)
    }

    fn overlaps(l: &Layout) -> Vec<(usize, usize, f64)> {
        let mut out = Vec::new();
        for (i, p) in l.points.iter().enumerate() {
            for (j, q) in l.points.iter().enumerate().skip(i + 1) {
                let d = (p.0 - q.0).hypot(p.1 - q.1);
                if d < 2.0 * l.radius + GAP - 0.5 {
                    out.push((i, j, d));
                }
            }
        }
        out
    }

    fn inside(l: &Layout) -> bool {
        (l.points.iter()).all(|p| {
            p.0 - l.radius >= 0.0
                && p.0 + l.radius <= l.width
                && p.1 - l.radius >= 0.0
                && p.1 + l.radius <= l.height
        })
    }

    #[test]
    fn no_two_worlds_overlap_and_all_lie_inside() {
        let pairs: Vec<(usize, usize, f64)> = (0..6).map(|k| (2 * k, 2 * k + 1, 20.0)).collect();
        let k33: Vec<(usize, usize, f64)> = (0..3)
            .flat_map(|a| (3..6).map(move |b| (a, b, 18.0)))
            .collect();
        let (n16, cube4) = cube(4);
        let (n8, cube3) = cube(3);
        for (n, edges, radius) in [
            (12, pairs, 48.0),
            (6, k33, 30.0),
            (n16, cube4, 19.2),
            (n8, cube3, 16.0),
            (5, Vec::new(), 20.0),
            (40, Vec::new(), 16.0),
        ] {
            let l = layout(n, &edges, radius);
            assert_eq!(l.points.len(), n);
            assert_eq!(l.labels.len(), edges.len());
            assert_eq!(overlaps(&l), vec![], "{n} worlds: {l:?}");
            assert!(inside(&l), "{n} worlds: {l:?}");
        }
    }

    #[test]
    fn pieces_are_packed_side_by_side() {
        // Monty Hall's end: six pairs. Laid out in rows, the drawing is about as wide as
        // ASPECT times its height, not six pairs in a line (nor spread apart).
        let pairs: Vec<(usize, usize, f64)> = (0..6).map(|k| (2 * k, 2 * k + 1, 20.0)).collect();
        let l = layout(12, &pairs, 48.0);
        assert!(l.width < 1000.0 && l.height < 700.0, "{l:?}");
        let ratio = l.width / l.height;
        assert!((0.8..=3.2).contains(&ratio), "{l:?}");
        // Each pair is an edge long enough for its label.
        for &(a, b, w) in &pairs {
            let d = (l.points[a].0 - l.points[b].0).hypot(l.points[a].1 - l.points[b].1);
            assert!(d >= 2.0 * 48.0 + w, "{d}");
        }
    }

    #[test]
    fn the_worlds_of_a_group_are_near_each_other() {
        // Two groups of four worlds a character cannot tell apart (cliques), joined by
        // one edge of another character's: each world is nearer every world of its own
        // group than any world of the other group.
        let mut edges = Vec::new();
        for group in [0, 4] {
            for a in group..group + 4 {
                for b in a + 1..group + 4 {
                    edges.push((a, b, 20.0));
                }
            }
        }
        edges.push((3, 4, 20.0));
        let l = layout(8, &edges, 20.0);
        let d = |a: usize, b: usize| {
            (l.points[a].0 - l.points[b].0).hypot(l.points[a].1 - l.points[b].1)
        };
        for a in 0..8 {
            let own = |b: usize| (a < 4) == (b < 4);
            let near = (0..8)
                .filter(|&b| b != a && own(b))
                .map(|b| d(a, b))
                .fold(0.0, f64::max);
            let far = (0..8)
                .filter(|&b| !own(b))
                .map(|b| d(a, b))
                .fold(f64::MAX, f64::min);
            assert!(
                near < far,
                "world {a}: {near} within its group, {far} to the other: {l:?}"
            );
        }
    }

    #[test]
    fn the_layout_is_deterministic() {
        let (n, edges) = cube(4);
        assert_eq!(layout(n, &edges, 19.2), layout(n, &edges, 19.2));
        assert_eq!(layout(0, &[], 16.0).points, vec![]);
        assert_eq!(layout(1, &[], 16.0).points.len(), 1);
    }

    #[test]
    fn edge_labels_cover_no_circle_when_they_can() {
        let k33: Vec<(usize, usize, f64)> = (0..3)
            .flat_map(|a| (3..6).map(move |b| (a, b, 18.0)))
            .collect();
        let l = layout(6, &k33, 30.0);
        for (k, c) in l.labels.iter().enumerate() {
            for p in &l.points {
                let nx = p.0.clamp(c.0 - 11.0, c.0 + 11.0);
                let ny = p.1.clamp(c.1 - 6.0, c.1 + 6.0);
                assert!(
                    (nx - p.0).hypot(ny - p.1) >= 30.0,
                    "label {k} at {c:?}, {l:?}"
                );
            }
        }
    }
}
