//! The printer (`Display` for `ast::Expr`): what it prints parses back to the same tree,
//! with the fewest parentheses.

use std::path::{Path, PathBuf};

use epipen_syntax::ast::{
    Action, BinOp, Binder, Block, CaseName, Change, EventItem, EventItemKind, Expr, ExprKind,
    GroupItem, Ident, Range, Sample, Stmt, StmtKind, UnOp,
};
use epipen_syntax::{Span, parse, parse_expr};

/// The tree's `Debug` text with every span replaced by `_` (spans are where the text
/// was, which printing does not keep).
fn shape(e: &impl std::fmt::Debug) -> String {
    let debug = format!("{e:?}");
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        let close = rest[at..].find('}').expect("a span's closing brace");
        out.push('_');
        rest = &rest[at + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Prints `e`, parses the text back and checks the tree is the same; returns the text.
fn round_trip(e: &Expr, origin: &str) -> String {
    let text = e.to_string();
    let back = parse_expr(&text).unwrap_or_else(|diags| {
        panic!("{origin}: `{text}` does not parse back: {diags:?}\ntree: {e:?}")
    });
    assert_eq!(
        shape(&back),
        shape(e),
        "{origin}: `{text}` parses back to another tree"
    );
    text
}

// ----- the expressions of a story ----------------------------------------------------

fn range_exprs<'a>(range: &'a Range, out: &mut Vec<&'a Expr>) {
    match range {
        Range::Between { lo, hi } => out.extend([lo, hi]),
        Range::List { items, .. } => out.extend(items),
    }
}

fn binder_exprs<'a>(binders: &'a [Binder], out: &mut Vec<&'a Expr>) {
    for binder in binders {
        range_exprs(&binder.range, out);
    }
}

fn case_exprs<'a>(case: &'a CaseName, out: &mut Vec<&'a Expr>) {
    out.extend(&case.indices);
}

fn block_exprs<'a>(block: &'a Block, out: &mut Vec<&'a Expr>) {
    for stmt in &block.statements {
        stmt_exprs(stmt, out);
    }
}

fn change_exprs<'a>(change: &'a Change, out: &mut Vec<&'a Expr>) {
    match change {
        Change::One { target, value } => out.extend([target, value]),
        Change::For { range, body, .. } => {
            range_exprs(range, out);
            for c in body {
                change_exprs(c, out);
            }
        }
    }
}

fn group_exprs<'a>(groups: &'a [Vec<GroupItem>], out: &mut Vec<&'a Expr>) {
    for item in groups.iter().flatten() {
        match item {
            GroupItem::Case(case) => case_exprs(case, out),
            GroupItem::Each {
                binders,
                guard,
                case,
                ..
            }
            | GroupItem::All {
                binders,
                guard,
                case,
                ..
            } => {
                binder_exprs(binders, out);
                out.extend(guard.as_deref());
                case_exprs(case, out);
            }
            GroupItem::Others(_) => {}
        }
    }
}

fn event_exprs<'a>(items: &'a [EventItem], out: &mut Vec<&'a Expr>) {
    for item in items {
        match &item.kind {
            EventItemKind::Case {
                name,
                pre,
                weight,
                changes,
            } => {
                case_exprs(name, out);
                out.extend(pre);
                out.extend(weight.as_deref());
                for change in changes {
                    change_exprs(change, out);
                }
            }
            EventItemKind::Sees { who, groups } | EventItemKind::Expects { who, groups } => {
                out.push(who);
                group_exprs(groups, out);
            }
            EventItemKind::Actual(case) => case_exprs(case, out),
            EventItemKind::For { range, body, .. } => {
                range_exprs(range, out);
                event_exprs(body, out);
            }
            EventItemKind::If {
                cond,
                then,
                otherwise,
            } => {
                out.push(cond);
                event_exprs(then, out);
                if let Some(otherwise) = otherwise {
                    event_exprs(otherwise, out);
                }
            }
        }
    }
}

/// Every expression statement `stmt` holds (and the statements inside it hold).
fn stmt_exprs<'a>(stmt: &'a Stmt, out: &mut Vec<&'a Expr>) {
    match &stmt.kind {
        StmtKind::Characters(decls) | StmtKind::Constants { names: decls, .. } => {
            out.extend(decls.iter().filter_map(|d| d.size.as_ref()));
        }
        StmtKind::Const { value, .. } => out.push(value),
        StmtKind::Enum { .. } | StmtKind::Checkpoint(_) | StmtKind::Worlds { .. } => {}
        StmtKind::Announce(e)
        | StmtKind::Actual(e)
        | StmtKind::Check(e)
        | StmtKind::CheckActual(e)
        | StmtKind::Where(e)
        | StmtKind::Prior(e)
        | StmtKind::Show(e) => out.push(e),
        StmtKind::Learns { who, what } => {
            out.push(who);
            out.extend(what);
        }
        StmtKind::Says { speaker: who, what }
        | StmtKind::Reveals { who, what }
        | StmtKind::Expects { who, what } => out.extend([who, what]),
        StmtKind::For { range, body, .. } => {
            range_exprs(range, out);
            block_exprs(body, out);
        }
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            out.push(cond);
            block_exprs(then, out);
            if let Some(otherwise) = otherwise {
                block_exprs(otherwise, out);
            }
        }
        StmtKind::Simultaneously(body) => block_exprs(body, out),
        StmtKind::Repeat { max, body, until } => {
            out.push(max);
            block_exprs(body, out);
            out.push(until);
        }
        StmtKind::AssertAddsCk { hint, body } => {
            out.push(hint);
            block_exprs(body, out);
        }
        StmtKind::Assign { targets, values } => {
            out.extend(targets);
            out.extend(values);
        }
        StmtKind::Def { body, .. } => out.push(body),
        StmtKind::Event { body, .. } => event_exprs(body, out),
        StmtKind::Action(action) => {
            let Action {
                name,
                owner,
                guard,
                body,
            } = &**action;
            case_exprs(name, out);
            out.extend(owner);
            out.extend(guard);
            event_exprs(body, out);
        }
        StmtKind::Do(items) => {
            for item in items {
                case_exprs(&item.action, out);
                if let Some(case) = &item.case {
                    case_exprs(case, out);
                }
            }
        }
        StmtKind::Plan(plan) => {
            out.push(&plan.goal);
            out.extend(&plan.max);
            out.extend(&plan.keeping);
        }
    }
}

/// The expressions directly inside `e`.
fn children(e: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Name(_) | ExprKind::Execution { .. } => {}
        ExprKind::Unary { operand, .. } => out.push(&**operand),
        ExprKind::Binary { lhs, rhs, .. } => out.extend([&**lhs, &**rhs]),
        ExprKind::Ite {
            cond,
            then,
            otherwise,
        } => out.extend([&**cond, &**then, &**otherwise]),
        ExprKind::Tuple(items) | ExprKind::Call { args: items, .. } => out.extend(items),
        ExprKind::In {
            element,
            set,
            sample,
        } => {
            out.push(&**element);
            out.extend(set);
            out.extend(sample.iter().map(|s| &*s.count));
        }
        ExprKind::InRange { element, lo, hi } => out.extend([&**element, &**lo, &**hi]),
        ExprKind::Index { index, .. } => out.push(&**index),
        ExprKind::Aggregate {
            binders,
            guard,
            body,
            ..
        } => {
            binder_exprs(binders, &mut out);
            out.extend(guard.as_deref());
            out.push(&**body);
        }
        ExprKind::Announced {
            group,
            formula,
            body,
            ..
        } => {
            out.extend(group);
            out.extend([&**formula, &**body]);
        }
        ExprKind::Quantified { vars, body, .. } => {
            out.extend(vars);
            out.push(&**body);
        }
    }
    out
}

fn story_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            story_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "story") {
            out.push(path);
        }
    }
}

/// Every expression of every story (and every expression inside them) prints as text
/// that parses back to the same tree.
#[test]
fn every_story_expression_round_trips() {
    let stories = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../stories");
    let mut files = Vec::new();
    story_files(&stories, &mut files);
    files.sort();
    assert!(files.len() > 20, "found only {} stories", files.len());
    let (mut top, mut all) = (0, 0);
    for file in &files {
        let source = std::fs::read_to_string(file).expect("a readable story");
        let story = parse(&source)
            .unwrap_or_else(|diags| panic!("{} does not parse: {diags:?}", file.display()));
        let mut exprs = Vec::new();
        for stmt in &story.statements {
            stmt_exprs(stmt, &mut exprs);
        }
        top += exprs.len();
        let origin = file.display().to_string();
        while let Some(e) = exprs.pop() {
            round_trip(e, &origin);
            all += 1;
            exprs.extend(children(e));
        }
    }
    assert!(top > 500, "only {top} expressions in the stories");
    assert!(all > 2000, "only {all} expressions and sub-expressions");
}

/// Every story file of the repository (`stories/`, the benchmarks', the command line's
/// tests') prints whole as text that parses back to the same story, and printing that
/// text again gives it unchanged.
#[test]
fn every_story_prints_whole_as_a_story_that_parses_back() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["stories", "bench", "crates/epipen-cli/tests/unbounded"] {
        story_files(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() > 90, "found only {} stories", files.len());
    for file in &files {
        let source = std::fs::read_to_string(file).expect("a readable story");
        let story = parse(&source)
            .unwrap_or_else(|diags| panic!("{} does not parse: {diags:?}", file.display()));
        let text = story.to_string();
        let back = parse(&text).unwrap_or_else(|diags| {
            panic!(
                "{} prints as a story that does not parse: {diags:?}\n{text}",
                file.display()
            )
        });
        assert_eq!(
            shape(&back),
            shape(&story),
            "{} prints as another story:\n{text}",
            file.display()
        );
        assert_eq!(back.to_string(), text, "{}", file.display());
    }
}

/// Statements print as the stories write them: blocks indented by two spaces, `else
/// if` chained, a case line's parts in order.
#[test]
fn statements_print_as_a_story_writes_them() {
    let source = "characters A, child[2]\nenum Colour { red, green }\nColour wall\nint x, y\n\
                  def big(v) = v > 1\nif x > 1 { announce y > 1 } else if x > 0 { A learns x, y } \
                  else { check actual wall == red }\nrepeat max 3 { A: knows_value(x) } until x == 1\n\
                  event flip {\n heads if x > 0 weight 2 then x := x - 1, for i in 0..2 { y := i }\n \
                  tails\n A sees heads | tails\n child[0] expects heads > others\n for i in 0..2 { \
                  child[i] sees each(j in 0..2 if j != i: heads) }\n actual tails\n}\n\
                  action shout by A if x > 0 {\n done\n}\ndo shout: done\n\
                  plan all knows(A, x == 1) max 2 keeping y > 0 coordinated\nx, y := y, x\n";
    let story = parse(source).expect("the story parses");
    assert_eq!(
        story.to_string(),
        "characters A, child[2]\n\
         enum Colour { red, green }\n\
         Colour wall\n\
         int x, y\n\
         def big(v) = v > 1\n\
         if x > 1 {\n  announce y > 1\n} else if x > 0 {\n  A learns x, y\n} else {\n  \
         check actual wall == red\n}\n\
         repeat max 3 {\n  A: knows_value(x)\n} until x == 1\n\
         event flip {\n  heads if x > 0 weight 2 then x := x - 1, for i in 0..2 { y := i }\n  \
         tails\n  A sees heads | tails\n  child[0] expects heads > others\n  \
         for i in 0..2 {\n    child[i] sees each(j in 0..2 if j != i: heads)\n  }\n  \
         actual tails\n}\n\
         action shout by A if x > 0 {\n  done\n}\n\
         do shout: done\n\
         plan all knows(A, x == 1) max 2 keeping y > 0 coordinated\n\
         x, y := y, x\n"
    );
}

// ----- exact texts -------------------------------------------------------------------

/// `source` parses, and prints as `printed` (which parses to the same tree).
fn prints_as(source: &str, printed: &str) {
    let e = parse_expr(source).unwrap_or_else(|d| panic!("`{source}` does not parse: {d:?}"));
    assert_eq!(round_trip(&e, source), printed, "printing `{source}`");
}

#[test]
fn tricky_cases_print_exactly() {
    let cases = [
        // Left-associative arithmetic.
        ("a - (b - c)", "a - (b - c)"),
        ("(a - b) - c", "a - b - c"),
        ("a - b + c", "a - b + c"),
        ("a - (b + c)", "a - (b + c)"),
        ("(a + b) * c", "(a + b) * c"),
        ("a + (b * c)", "a + b * c"),
        ("a / (b * c)", "a / (b * c)"),
        ("(a % b) * c", "a % b * c"),
        // Negation binds tighter than `*`.
        ("-(a + b)", "-(a + b)"),
        ("-(a * b)", "-(a * b)"),
        ("(-a) * b", "-a * b"),
        ("-5", "-5"),
        ("5 - -3", "5 - -3"),
        ("- -x", "- -x"),
        ("--x", "- -x"),
        ("-(-5)", "- -5"),
        ("-muddy[i + 1]", "-muddy[i + 1]"),
        ("-f(x)", "-f(x)"),
        // `not` binds looser than comparisons, tighter than `and`.
        ("not (a and b)", "not (a and b)"),
        ("not a and b", "not a and b"),
        ("(not a) and b", "not a and b"),
        ("not (x == 1)", "not x == 1"),
        ("not not p", "not not p"),
        ("(not a) == b", "(not a) == b"),
        ("a and (b or c)", "a and (b or c)"),
        ("(a and b) or c", "a and b or c"),
        ("(a or b) or c", "a or b or c"),
        ("a or (b or c)", "a or (b or c)"),
        // `->` is right-associative, `<->` left-associative.
        ("a -> b -> c", "a -> b -> c"),
        ("a -> (b -> c)", "a -> b -> c"),
        ("(a -> b) -> c", "(a -> b) -> c"),
        ("a <-> b <-> c", "a <-> b <-> c"),
        ("a <-> (b <-> c)", "a <-> (b <-> c)"),
        ("(a <-> b) -> c", "(a <-> b) -> c"),
        ("a <-> b -> c", "a <-> b -> c"),
        ("a or b -> c and d", "a or b -> c and d"),
        // Comparisons do not chain: a comparison of comparisons is parenthesised.
        ("(a == b) == c", "(a == b) == c"),
        ("a != (b < c)", "a != (b < c)"),
        ("(x in {1, 2}) == p", "(x in {1, 2}) == p"),
        ("month == 5", "month == 5"),
        ("a + b * c <= 7", "a + b * c <= 7"),
        // `if` extends as far right as it can.
        ("(if c then 1 else 2) + 3", "(if c then 1 else 2) + 3"),
        ("3 + (if c then 1 else 2)", "3 + if c then 1 else 2"),
        ("if c then 1 else (2 + 3)", "if c then 1 else 2 + 3"),
        ("(if a then b else c) and d", "(if a then b else c) and d"),
        (
            "if if a then b else c then d else e",
            "if if a then b else c then d else e",
        ),
        (
            "if a then (if b then c else d) else e",
            "if a then if b then c else d else e",
        ),
        ("f(if a then 1 else 2, 3)", "f(if a then 1 else 2, 3)"),
        ("-(if a then 1 else 2)", "-if a then 1 else 2"),
        // …except that an arithmetic operator does not continue a membership.
        (
            "(if c then a else x in {1}) + 2",
            "if c then a else x in {1} + 2",
        ),
        (
            "(if c then a else x in {1}) and d",
            "(if c then a else x in {1}) and d",
        ),
        (
            "(forall p: p and x in {1}) * 2",
            "forall p: p and x in {1} * 2",
        ),
        (
            "(forall p: forall q: x in {1}) * 2",
            "(forall p: forall q: x in {1}) * 2",
        ),
        (
            "(x) == (-(if a then 1 else 2)) * 2",
            "x == -(if a then 1 else 2) * 2",
        ),
        // Calls, families, sets, tuples, samples.
        ("knows(A, x == 1)", "knows(A, x == 1)"),
        ("knows(Albert,month==5)", "knows(Albert, month == 5)"),
        ("x in {1, 2}", "x in {1, 2}"),
        ("x in {1,2,3,}", "x in {1, 2, 3}"),
        (
            "(m, d) in {(5, 15), (6, 17)}",
            "(m, d) in {(5, 15), (6, 17)}",
        ),
        ("x in sample(2, {1, 2, 3})", "x in sample(2, {1, 2, 3})"),
        ("x + 1 in {1}", "x + 1 in {1}"),
        ("muddy[i + 1]", "muddy[i + 1]"),
        ("call[i, j]", "call[i, j]"),
        ("f()", "f()"),
        ("f((x in {1}), y in {2})", "f((x in {1}), y in {2})"),
        ("f((x in {1}), y)", "f(x in {1}, y)"),
        // Aggregates.
        (
            "all(i in 0..n, j in 0..n if i != j: knows(c[i], m[j]))",
            "all(i in 0..n, j in 0..n if i != j: knows(c[i], m[j]))",
        ),
        ("sum(i in {0, 7, 35}: x[i])", "sum(i in {0, 7, 35}: x[i])"),
        (
            "count(i in a - 1..b + 1: p[i])",
            "count(i in a - 1..b + 1: p[i])",
        ),
        ("any(i in 0..n: p[i]) and q", "any(i in 0..n: p[i]) and q"),
        // Announcements.
        ("[A ?! p] knows(A, p)", "[A ?! p] knows(A, p)"),
        ("[! p] q", "[! p] q"),
        ("[?! p and q] r", "[?! p and q] r"),
        ("[A, child[2] ! p] q", "[A, child[2] ! p] q"),
        ("<! p> q", "<! p> q"),
        ("<A, B ?! p> q", "<A, B ?! p> q"),
        ("<! (x > 3)> q", "<! (x > 3)> q"),
        ("<! x < 3> q", "<! x < 3> q"),
        ("<! f(x > 3)> q", "<! f(x > 3)> q"),
        ("<! (if a then b else c)> q", "<! (if a then b else c)> q"),
        (
            "<! ((if a then b else c) > 3)> q",
            "<! ((if a then b else c) > 3)> q",
        ),
        (
            "<! (if a then b else c)> 3 > q",
            "<! (if a then b else c)> 3 > q",
        ),
        ("<! p> x > 3", "<! p> x > 3"),
        (
            "f((x in {y in {1}}), z in {2})",
            "f(x in {y in {1}}, z in {2})",
        ),
        ("[! p] (q and r)", "[! p] (q and r)"),
        ("([! p] q) and r", "[! p] q and r"),
        ("[! p] x == 1", "[! p] x == 1"),
        ("not [! p] not q", "not [! p] not q"),
        ("a and <! p> q", "a and <! p> q"),
        ("x == ([! p] q)", "x == ([! p] q)"),
        ("[! p] if a then b else c", "[! p] if a then b else c"),
        (
            "([! p] if a then b else c) or d",
            "[! p] (if a then b else c) or d",
        ),
        // Quantifiers.
        ("forall p, q: p or q", "forall p, q: p or q"),
        ("exists p[1]: p[1]", "exists p[1]: p[1]"),
        ("(forall p: p) and q", "(forall p: p) and q"),
        ("q and forall p: p", "q and forall p: p"),
        // Literals.
        ("true", "true"),
        ("not false", "not false"),
    ];
    for (source, printed) in cases {
        prints_as(source, printed);
    }
}

fn id(name: &str) -> Ident {
    Ident {
        name: name.to_string(),
        span: Span::default(),
    }
}

fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

/// What only builders make prints as near to story text as it can.
#[test]
fn builder_only_trees_print() {
    let execution = ex(ExprKind::Execution {
        event: id("tell"),
        k: 0,
    });
    assert_eq!(execution.to_string(), "tell#0");
    assert_eq!(ex(ExprKind::Int(-5)).to_string(), "-5");
    let one = ex(ExprKind::Tuple(vec![ex(ExprKind::Name(id("a")))]));
    assert_eq!(round_trip(&one, "a tuple of one"), "(a,)");
}

// ----- generated trees ---------------------------------------------------------------

/// A small deterministic generator of pseudo-random numbers (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const OPS: [BinOp; 15] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Mod,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::And,
    BinOp::Or,
    BinOp::Implies,
    BinOp::Iff,
];

/// A random tree the parser could produce, at most `depth` deep.
fn tree(rng: &mut Rng, depth: u32) -> Expr {
    let name = |rng: &mut Rng| ex(ExprKind::Name(id(["a", "b", "c", "x"][rng.below(4)])));
    if depth == 0 {
        return match rng.below(4) {
            0 => ex(ExprKind::Int(rng.below(10) as i64)),
            1 => ex(ExprKind::Bool(rng.below(2) == 0)),
            _ => name(rng),
        };
    }
    let sub = |rng: &mut Rng| Box::new(tree(rng, depth - 1));
    let kind = match rng.below(16) {
        0..=4 => ExprKind::Binary {
            op: OPS[rng.below(OPS.len())],
            lhs: sub(rng),
            rhs: sub(rng),
        },
        5 => ExprKind::Unary {
            op: UnOp::Neg,
            operand: sub(rng),
        },
        6 => ExprKind::Unary {
            op: UnOp::Not,
            operand: sub(rng),
        },
        7 => ExprKind::Ite {
            cond: sub(rng),
            then: sub(rng),
            otherwise: sub(rng),
        },
        8 => ExprKind::Tuple(vec![*sub(rng), *sub(rng)]),
        9 if rng.below(3) == 0 => ExprKind::InRange {
            element: sub(rng),
            lo: sub(rng),
            hi: sub(rng),
        },
        9 => ExprKind::In {
            element: sub(rng),
            set: (0..rng.below(3)).map(|_| *sub(rng)).collect(),
            sample: (rng.below(3) == 0).then(|| Sample {
                count: sub(rng),
                span: Span::default(),
            }),
        },
        10 => ExprKind::Call {
            name: id("f"),
            args: (0..rng.below(3)).map(|_| *sub(rng)).collect(),
        },
        11 => ExprKind::Index {
            base: id("m"),
            index: sub(rng),
        },
        12 => {
            let range = if rng.below(2) == 0 {
                Range::Between {
                    lo: *sub(rng),
                    hi: *sub(rng),
                }
            } else {
                Range::List {
                    items: vec![ex(ExprKind::Int(0)), *sub(rng)],
                    span: Span::default(),
                }
            };
            ExprKind::Aggregate {
                name: id("all"),
                binders: vec![Binder {
                    var: id("i"),
                    range,
                }],
                guard: (rng.below(2) == 0).then(|| sub(rng)),
                body: sub(rng),
            }
        }
        13 | 14 => ExprKind::Announced {
            group: (0..rng.below(3)).map(|_| name(rng)).collect(),
            whether: rng.below(2) == 0,
            diamond: rng.below(2) == 0,
            formula: sub(rng),
            body: sub(rng),
        },
        _ => ExprKind::Quantified {
            forall: rng.below(2) == 0,
            vars: vec![name(rng)],
            body: sub(rng),
        },
    };
    ex(kind)
}

/// Does the tree hold a list range with a `{` inside (which the parser cannot read as
/// a binder: no text gives that tree)?
fn unreadable(e: &Expr) -> bool {
    let braces = |e: &Expr| format!("{e}").contains('{');
    if let ExprKind::Aggregate { binders, .. } = &e.kind {
        let bad = binders.iter().any(|b| match &b.range {
            Range::List { items, .. } => items.iter().any(braces),
            Range::Between { .. } => false,
        });
        if bad {
            return true;
        }
    }
    children(e).into_iter().any(unreadable)
}

/// Random trees of every kind the parser produces round-trip through their text.
#[test]
fn generated_trees_round_trip() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for i in 0..20_000 {
        let e = tree(&mut rng, 1 + i % 4);
        if unreadable(&e) {
            continue;
        }
        round_trip(&e, "generated");
        checked += 1;
    }
    assert!(checked > 15_000, "only {checked} trees checked");
}

/// The parentheses printed are all needed: dropping any pair changes the tree or stops
/// the text parsing.
#[test]
fn generated_trees_have_no_spare_parentheses() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for i in 0..3_000 {
        let e = tree(&mut rng, 1 + i % 3);
        if unreadable(&e) {
            continue;
        }
        let text = round_trip(&e, "generated");
        let bytes = text.as_bytes();
        for (open, _) in text.match_indices('(') {
            // Only parentheses the printer adds: not a call's, a tuple's or `sample(`'s.
            if open > 0 && (bytes[open - 1].is_ascii_alphanumeric() || bytes[open - 1] == b'_') {
                continue;
            }
            let mut depth = 0;
            let mut close = open;
            let mut comma = false;
            for (j, &b) in bytes.iter().enumerate().skip(open) {
                match b {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    b',' if depth == 1 => comma = true,
                    _ => {}
                }
                if depth == 0 {
                    close = j;
                    break;
                }
            }
            if comma {
                continue;
            }
            let without = format!(
                "{}{}{}",
                &text[..open],
                &text[open + 1..close],
                &text[close + 1..]
            );
            if let Ok(back) = parse_expr(&without) {
                assert_ne!(
                    shape(&back),
                    shape(&e),
                    "`{text}`: the parentheses at {open} are not needed (`{without}`)"
                );
            }
        }
    }
}
