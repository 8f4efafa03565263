use super::super::{diagnostic::line_col, parse};
use super::*;
use crate::ast::{
    Block, CaseName, Change, Decl, EventItem, EventItemKind, Expr, ExprKind, GroupItem, Range,
    SortName, Stmt, StmtKind, Story, UnOp,
};
use crate::diagnostic::Diagnostic;

/// An S-expression rendering of an expression.
fn show(e: &Expr) -> String {
    let list = |head: &str, items: &[&Expr]| {
        let mut s = format!("({head}");
        for item in items {
            s.push(' ');
            s.push_str(&show(item));
        }
        s + ")"
    };
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Name(id) => id.name.clone(),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => list("-", &[operand]),
        ExprKind::Unary {
            op: UnOp::Not,
            operand,
        } => list("not", &[operand]),
        ExprKind::Binary { op, lhs, rhs } => list(op.symbol(), &[lhs, rhs]),
        ExprKind::Ite {
            cond,
            then,
            otherwise,
        } => list("if", &[cond, then, otherwise]),
        ExprKind::Tuple(items) => list("tuple", &items.iter().collect::<Vec<_>>()),
        ExprKind::In {
            element,
            set,
            sample,
        } => {
            let set = list("set", &set.iter().collect::<Vec<_>>());
            match sample {
                None => format!("(in {} {set})", show(element)),
                Some(s) => format!("(in {} (sample {} {set}))", show(element), show(&s.count)),
            }
        }
        ExprKind::InRange { element, lo, hi } => list("in-range", &[element, lo, hi]),
        ExprKind::Call { name, args } => list(
            &format!("call {}", name.name),
            &args.iter().collect::<Vec<_>>(),
        ),
        ExprKind::Index { base, index } => format!("(index {} {})", base.name, show(index)),
        ExprKind::Aggregate {
            name,
            binders,
            guard,
            body,
        } => {
            let mut s = format!("({}", name.name);
            for b in binders {
                s.push_str(&format!(" ({} {})", b.var.name, show_range_sexp(&b.range)));
            }
            if let Some(guard) = guard {
                s.push_str(&format!(" (if {})", show(guard)));
            }
            format!("{s} {})", show(body))
        }
        ExprKind::Announced {
            group,
            whether,
            diamond,
            formula,
            body,
        } => {
            let head = match (diamond, whether) {
                (false, false) => "box!",
                (false, true) => "box?!",
                (true, false) => "dia!",
                (true, true) => "dia?!",
            };
            let group: Vec<String> = group.iter().map(show).collect();
            format!(
                "({head} [{}] {} {})",
                group.join(" "),
                show(formula),
                show(body)
            )
        }
        ExprKind::Quantified { forall, vars, body } => {
            let word = if *forall { "forall" } else { "exists" };
            let vars: Vec<String> = vars.iter().map(show).collect();
            format!("({word} [{}] {})", vars.join(" "), show(body))
        }
        ExprKind::Execution { event, k } => format!("{}#{k}", event.name),
    }
}

/// `lo..hi` or `{a, b}`.
fn show_range(r: &Range) -> String {
    match r {
        Range::Between { lo, hi } => format!("{}..{}", show(lo), show(hi)),
        Range::List { items, .. } => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// `lo hi` or `(list a b)`.
fn show_range_sexp(r: &Range) -> String {
    match r {
        Range::Between { lo, hi } => format!("{} {}", show(lo), show(hi)),
        Range::List { items, .. } => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("(list {})", items.join(" "))
        }
    }
}

fn show_decls(decls: &[Decl]) -> String {
    decls
        .iter()
        .map(|d| match &d.size {
            None => d.name.name.clone(),
            Some(size) => format!("{}[{}]", d.name.name, show(size)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn show_block(b: &Block) -> String {
    let inner: Vec<String> = b.statements.iter().map(show_stmt).collect();
    format!("{{{}}}", inner.join("; "))
}

/// A statement as a compact string.
fn show_stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Characters(ns) => format!("characters {}", show_decls(ns)),
        StmtKind::Constants { sort, names } => {
            let sort = match sort {
                SortName::Enum(name) => name.name.clone(),
                other => format!("{other:?}"),
            };
            format!("{sort} {}", show_decls(names))
        }
        StmtKind::Const { name, value } => format!("const {} = {}", name.name, show(value)),
        StmtKind::Enum { name, variants } => {
            let vs: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
            format!("enum {} {}", name.name, vs.join(" "))
        }
        StmtKind::Announce(e) => format!("announce {}", show(e)),
        StmtKind::Learns { who, what } => {
            let what: Vec<String> = what.iter().map(show).collect();
            format!("{} learns {}", show(who), what.join(", "))
        }
        StmtKind::Says { speaker, what } => format!("{} says {}", show(speaker), show(what)),
        StmtKind::Reveals { who, what } => format!("{} reveals {}", show(who), show(what)),
        StmtKind::Checkpoint(n) => format!("checkpoint {}", n.name),
        StmtKind::Worlds { limit } => format!("worlds {limit:?}"),
        StmtKind::For { var, range, body } => format!(
            "for {} in {} {}",
            var.name,
            show_range(range),
            show_block(body)
        ),
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            let mut s = format!("if {} {}", show(cond), show_block(then));
            if let Some(otherwise) = otherwise {
                s.push_str(&format!(" else {}", show_block(otherwise)));
            }
            s
        }
        StmtKind::Simultaneously(b) => format!("simultaneously {}", show_block(b)),
        StmtKind::Def { name, params, body } => {
            let params: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
            format!("def {}({}) = {}", name.name, params.join(", "), show(body))
        }
        StmtKind::Where(e) => format!("where {}", show(e)),
        StmtKind::Prior(e) => format!("prior {}", show(e)),
        StmtKind::Show(e) => format!("show {}", show(e)),
        StmtKind::Actual(e) => format!("actual {}", show(e)),
        StmtKind::Repeat { max, body, until } => format!(
            "repeat max {} {} until {}",
            show(max),
            show_block(body),
            show(until)
        ),
        StmtKind::AssertAddsCk { hint, body } => {
            format!("assert_adds_ck {} {}", show(hint), show_block(body))
        }
        StmtKind::Check(e) => format!("check {}", show(e)),
        StmtKind::Assign { targets, values } => format!(
            "{} := {}",
            targets.iter().map(show).collect::<Vec<_>>().join(", "),
            values.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        StmtKind::CheckActual(e) => format!("check actual {}", show(e)),
        StmtKind::Expects { who, what } => format!("{} expects {}", show(who), show(what)),
        StmtKind::Event { name, body } => format!("event {} {}", name.name, show_event(body)),
        StmtKind::Action(action) => {
            let mut s = format!("action {}", show_case(&action.name));
            if let Some(owner) = &action.owner {
                s.push_str(&format!(" by {}", show(owner)));
            }
            if let Some(guard) = &action.guard {
                s.push_str(&format!(" if {}", show(guard)));
            }
            format!("{s} {}", show_event(&action.body))
        }
        StmtKind::Do(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|item| match &item.case {
                    Some(case) => format!("{}: {}", show_case(&item.action), show_case(case)),
                    None => show_case(&item.action),
                })
                .collect();
            format!("do {}", items.join(", "))
        }
        StmtKind::Plan(plan) => {
            let mut s = "plan".to_string();
            if plan.all {
                s.push_str(" all");
            }
            s.push_str(&format!(" {}", show(&plan.goal)));
            if let Some(max) = &plan.max {
                s.push_str(&format!(" max {}", show(max)));
            }
            if let Some(keeping) = &plan.keeping {
                s.push_str(&format!(" keeping {}", show(keeping)));
            }
            if plan.coordinated.is_some() {
                s.push_str(" coordinated");
            }
            s
        }
    }
}

fn show_case(c: &CaseName) -> String {
    if c.indices.is_empty() {
        c.name.name.clone()
    } else {
        let ix: Vec<String> = c.indices.iter().map(show).collect();
        format!("{}[{}]", c.name.name, ix.join(", "))
    }
}

fn show_groups(groups: &[Vec<GroupItem>], separator: &str) -> String {
    let item = |g: &GroupItem| match g {
        GroupItem::Case(c) => show_case(c),
        GroupItem::Others(_) => "others".to_string(),
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
            let kind = if matches!(g, GroupItem::Each { .. }) {
                "each"
            } else {
                "all"
            };
            let bs: Vec<String> = binders
                .iter()
                .map(|b| format!("{} in {}", b.var.name, show_range(&b.range)))
                .collect();
            let guard = guard
                .as_ref()
                .map(|g| format!(" if {}", show(g)))
                .unwrap_or_default();
            format!("{kind}({}{guard}: {})", bs.join(", "), show_case(case))
        }
    };
    groups
        .iter()
        .map(|g| g.iter().map(item).collect::<Vec<_>>().join(", "))
        .collect::<Vec<_>>()
        .join(separator)
}

fn show_changes(changes: &[Change]) -> String {
    let cs: Vec<String> = changes
        .iter()
        .map(|c| match c {
            Change::One { target, value } => format!("{} := {}", show(target), show(value)),
            Change::For {
                var, range, body, ..
            } => format!(
                "for {} in {} {{ {} }}",
                var.name,
                show_range(range),
                show_changes(body)
            ),
        })
        .collect();
    cs.join(", ")
}

fn show_event(items: &[EventItem]) -> String {
    let lines: Vec<String> = items
        .iter()
        .map(|item| match &item.kind {
            EventItemKind::Case {
                name,
                pre,
                weight,
                changes,
            } => {
                let mut s = show_case(name);
                if let Some(pre) = pre {
                    s.push_str(&format!(" if {}", show(pre)));
                }
                if let Some(weight) = weight {
                    s.push_str(&format!(" weight {}", show(weight)));
                }
                if !changes.is_empty() {
                    s.push_str(&format!(" then {}", show_changes(changes)));
                }
                s
            }
            EventItemKind::Sees { who, groups } => {
                format!("{} sees {}", show(who), show_groups(groups, " | "))
            }
            EventItemKind::Expects { who, groups } => {
                format!("{} expects {}", show(who), show_groups(groups, " > "))
            }
            EventItemKind::Actual(c) => format!("actual {}", show_case(c)),
            EventItemKind::For { var, range, body } => format!(
                "for {} in {} {}",
                var.name,
                show_range(range),
                show_event(body)
            ),
            EventItemKind::If {
                cond,
                then,
                otherwise,
            } => {
                let mut s = format!("if {} {}", show(cond), show_event(then));
                if let Some(o) = otherwise {
                    s.push_str(&format!(" else {}", show_event(o)));
                }
                s
            }
        })
        .collect();
    format!("{{{}}}", lines.join("; "))
}

fn parse_ok(src: &str) -> Story {
    match parse(src) {
        Ok(story) => story,
        Err(diags) => panic!("{src:?} failed: {diags:?}"),
    }
}

/// Parses `announce <src>` and shows the expression.
fn expr(src: &str) -> String {
    let story = parse_ok(&format!("announce {src}"));
    assert_eq!(story.statements.len(), 1, "{src:?}");
    match &story.statements[0].kind {
        StmtKind::Announce(e) => show(e),
        other => panic!("{other:?}"),
    }
}

/// The diagnostics of `src` as (message, line, column).
fn errors(src: &str) -> Vec<(String, usize, usize)> {
    match parse(src) {
        Ok(story) => panic!("{src:?} parsed: {story:?}"),
        Err(diags) => diags
            .into_iter()
            .map(|d| {
                let (line, col) = line_col(src, d.span.start);
                (d.message, line, col)
            })
            .collect(),
    }
}

fn error(src: &str) -> Diagnostic {
    match parse(src) {
        Ok(story) => panic!("{src:?} parsed: {story:?}"),
        Err(mut diags) => {
            assert_eq!(diags.len(), 1, "{src:?}: {diags:?}");
            diags.remove(0)
        }
    }
}

#[test]
fn expressions() {
    let table = [
        // Atoms.
        ("5", "5"),
        ("true", "true"),
        ("false", "false"),
        ("month", "month"),
        ("(month)", "month"),
        ("((month))", "month"),
        // Precedence, loosest to tightest.
        ("a <-> b -> c", "(<-> a (-> b c))"),
        ("a -> b <-> c", "(<-> (-> a b) c)"),
        ("a -> b or c", "(-> a (or b c))"),
        ("a or b and c", "(or a (and b c))"),
        ("a and b or c", "(or (and a b) c)"),
        ("not a and b", "(and (not a) b)"),
        ("not a == b", "(not (== a b))"),
        ("not not a", "(not (not a))"),
        ("a == b + c", "(== a (+ b c))"),
        ("a + b < c * d", "(< (+ a b) (* c d))"),
        ("a + b * c", "(+ a (* b c))"),
        ("a * b + c", "(+ (* a b) c)"),
        ("-a * b", "(* (- a) b)"),
        ("- -a", "(- (- a))"),
        ("(a + b) * c", "(* (+ a b) c)"),
        // Associativity.
        ("a <-> b <-> c", "(<-> (<-> a b) c)"),
        ("a -> b -> c", "(-> a (-> b c))"),
        ("a or b or c", "(or (or a b) c)"),
        ("a and b and c", "(and (and a b) c)"),
        ("a - b - c", "(- (- a b) c)"),
        ("a / b / c", "(/ (/ a b) c)"),
        ("a % b * c", "(* (% a b) c)"),
        // Every comparison.
        ("a == b", "(== a b)"),
        ("a != b", "(!= a b)"),
        ("a < b", "(< a b)"),
        ("a <= b", "(<= a b)"),
        ("a > b", "(> a b)"),
        ("a >= b", "(>= a b)"),
        // Unary vs binary minus.
        ("a - b", "(- a b)"),
        ("a - -b", "(- a (- b))"),
        ("a -b", "(- a b)"),
        ("-5", "(- 5)"),
        ("-a - b", "(- (- a) b)"),
        ("a * -b", "(* a (- b))"),
        // `if`.
        ("if c then 1 else 2", "(if c 1 2)"),
        ("if c then 1 else 2 + 3", "(if c 1 (+ 2 3))"),
        ("if c then a else b or d", "(if c a (or b d))"),
        ("1 + if c then 2 else 3", "(+ 1 (if c 2 3))"),
        ("(if c then 2 else 3) + 1", "(+ (if c 2 3) 1)"),
        (
            "if a and b then if c then 1 else 2 else 3",
            "(if (and a b) (if c 1 2) 3)",
        ),
        ("x == if c then 1 else 2", "(== x (if c 1 2))"),
        // Tuples and `in`.
        ("(a, b)", "(tuple a b)"),
        ("(a, b,)", "(tuple a b)"),
        ("(a,)", "(tuple a)"),
        ("month in {5, 6}", "(in month (set 5 6))"),
        ("month in {}", "(in month (set))"),
        ("month in {5,}", "(in month (set 5))"),
        (
            "(month, day) in {(5, 15), (6, 17),}",
            "(in (tuple month day) (set (tuple 5 15) (tuple 6 17)))",
        ),
        (
            "not x + 1 in {2} and b",
            "(and (not (in (+ x 1) (set 2))) b)",
        ),
        ("x in {1 + 2, -3}", "(in x (set (+ 1 2) (- 3)))"),
        // A range: `x in a..b`; as a call's first argument, a binder only when a `:`
        // or `if` follows it (or a `:` the next arguments).
        ("age in 1..n + 1", "(in-range age 1 (+ n 1))"),
        ("x in 0..3 -> p", "(-> (in-range x 0 3) p)"),
        ("knows(x in 1..4)", "(call knows (in-range x 1 4))"),
        ("f(x in 1..3, g(y))", "(call f (in-range x 1 3) (call g y))"),
        (
            "f(x in 1..3 -> p, y in {1})",
            "(call f (-> (in-range x 1 3) p) (in y (set 1)))",
        ),
        ("count(x in 1..4: p[x])", "(count (x 1 4) (index p x))"),
        ("count(x in 1..4 if q: p)", "(count (x 1 4) (if q) p)"),
        ("all(i in 0..n, j in 0..i: q)", "(all (i 0 n) (j 0 i) q)"),
        // Calls.
        ("f()", "(call f)"),
        ("knows(Albert)", "(call knows Albert)"),
        (
            "knows(Albert, month == 5)",
            "(call knows Albert (== month 5))",
        ),
        ("knows_value(Albert, day,)", "(call knows_value Albert day)"),
        (
            "at(start, knows(Albert, not rain))",
            "(call at start (call knows Albert (not rain)))",
        ),
        (
            "not knows(Albert, x) and y",
            "(and (not (call knows Albert x)) y)",
        ),
        // Big literal.
        ("9223372036854775807", "9223372036854775807"),
        // Multi-line continuation.
        ("a and\n b", "(and a b)"),
        ("a ->\n\n b", "(-> a b)"),
        ("a +  # comment\n  # another\n b", "(+ a b)"),
        ("(a\n and b)", "(and a b)"),
        ("x in {\n 1,\n 2\n}", "(in x (set 1 2))"),
        ("knows(\n Albert,\n x\n)", "(call knows Albert x)"),
        ("if c then\n 1 else\n 2", "(if c 1 2)"),
        ("if\n c then 1 else 2", "(if c 1 2)"),
        ("not\n a", "(not a)"),
        ("a <->\n b", "(<-> a b)"),
        ("a in\n {1}", "(in a (set 1))"),
        ("\n a", "a"),
    ];
    for (src, want) in table {
        assert_eq!(expr(src), want, "{src:?}");
    }
}

#[test]
fn expression_spans() {
    let src = "announce (a + b) * knows(Al, x) and -c";
    let story = parse_ok(src);
    let StmtKind::Announce(e) = &story.statements[0].kind else {
        panic!()
    };
    let text = |s: Span| &src[s.start..s.end];
    assert_eq!(text(e.span), "(a + b) * knows(Al, x) and -c");
    let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(text(lhs.span), "(a + b) * knows(Al, x)");
    assert_eq!(text(rhs.span), "-c");
    let ExprKind::Binary {
        lhs: paren,
        rhs: call,
        ..
    } = &lhs.kind
    else {
        panic!()
    };
    assert_eq!(text(paren.span), "(a + b)");
    assert_eq!(text(call.span), "knows(Al, x)");
    let ExprKind::Call { name, args } = &call.kind else {
        panic!()
    };
    assert_eq!(text(name.span), "knows");
    assert_eq!(text(args[1].span), "x");

    let src = "announce (m, d) in {(1, 2)} -> if c then 1 else 2";
    let text = |s: Span| &src[s.start..s.end];
    let story = parse_ok(src);
    let StmtKind::Announce(e) = &story.statements[0].kind else {
        panic!()
    };
    let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(text(lhs.span), "(m, d) in {(1, 2)}");
    assert_eq!(text(rhs.span), "if c then 1 else 2");
}

#[test]
fn statements() {
    let src = "\
# Cheryl's birthday
characters Albert, Bernard,
int month, day
bool rain
announce (month, day) in {
  (5, 15), (5, 16),
}
Albert learns month
Eve learns day / 10
Bernard: knows(Albert, month == 5)   # says
checkpoint start
worlds
worlds 25
characters A,
  B
";
    let story = parse_ok(src);
    let shown: Vec<String> = story.statements.iter().map(show_stmt).collect();
    assert_eq!(
        shown,
        [
            "characters Albert Bernard",
            "Int month day",
            "Bool rain",
            "announce (in (tuple month day) (set (tuple 5 15) (tuple 5 16)))",
            "Albert learns month",
            "Eve learns (/ day 10)",
            "Bernard says (call knows Albert (== month 5))",
            "checkpoint start",
            "worlds None",
            "worlds Some((25, Span { start: 237, end: 239 }))",
            "characters A B",
        ]
    );
    let spans: Vec<&str> = story
        .statements
        .iter()
        .map(|s| &src[s.span.start..s.span.end])
        .collect();
    assert_eq!(
        spans,
        [
            "characters Albert, Bernard,",
            "int month, day",
            "bool rain",
            "announce (month, day) in {\n  (5, 15), (5, 16),\n}",
            "Albert learns month",
            "Eve learns day / 10",
            "Bernard: knows(Albert, month == 5)",
            "checkpoint start",
            "worlds",
            "worlds 25",
            "characters A,\n  B",
        ]
    );
    assert_eq!(&src[237..239], "25");
    let StmtKind::Learns { who, .. } = &story.statements[4].kind else {
        panic!()
    };
    assert_eq!(&src[who.span.start..who.span.end], "Albert");
}

/// The statements of a story that must parse, one string each.
fn stmts(src: &str) -> Vec<String> {
    parse_ok(src).statements.iter().map(show_stmt).collect()
}

#[test]
fn new_statements() {
    let table: &[(&str, &[&str])] = &[
        ("const n = 6", &["const n = 6"]),
        (
            "const m = -n * 2 + max(n, 3)",
            &["const m = (+ (* (- n) 2) (call max n 3))"],
        ),
        (
            "enum Colour { red, green, blue }",
            &["enum Colour red green blue"],
        ),
        (
            "enum Colour {\n  red,\n  green,\n}\nColour wall[5], door",
            &["enum Colour red green", "Colour wall[5] door"],
        ),
        (
            "characters child[n], Nobody\nbool muddy[n + 1]\nint age[3],",
            &[
                "characters child[n] Nobody",
                "Bool muddy[(+ n 1)]",
                "Int age[3]",
            ],
        ),
        (
            "child[i] learns muddy[j]\nchild[0]: knows(muddy[0])\nchild[i - 1] reveals true",
            &[
                "(index child i) learns (index muddy j)",
                "(index child 0) says (call knows (index muddy 0))",
                "(index child (- i 1)) reveals true",
            ],
        ),
        (
            "A reveals not knows_value(x)",
            &["A reveals (not (call knows_value x))"],
        ),
        ("for i in 0..n { worlds }", &["for i in 0..n {worlds None}"]),
        ("for i in 0..n {}", &["for i in 0..n {}"]),
        (
            "for i in a + 1..b * 2 {\n\n  A learns x\n  # comment\n  worlds\n\n}",
            &["for i in (+ a 1)..(* b 2) {A learns x; worlds None}"],
        ),
        (
            "for i in 0..n {\n  for j in 0..n {\n    if i != j { child[i] learns muddy[j] }\n  }\n}",
            &[
                "for i in 0..n {for j in 0..n {if (!= i j) {(index child i) learns (index muddy j)}}}",
            ],
        ),
        (
            "if n > 1 { worlds } else { worlds 2 }",
            &["if (> n 1) {worlds None} else {worlds Some((2, Span { start: 34, end: 35 }))}"],
        ),
        (
            "if a { worlds } else if b {\n  announce c\n} else {\n}",
            &["if a {worlds None} else {if b {announce c} else {}}"],
        ),
        (
            "if x in {1, 2} { announce x in {3} }",
            &["if (in x (set 1 2)) {announce (in x (set 3))}"],
        ),
        (
            "simultaneously {\n  A: p\n  for i in 0..2 { child[i] reveals q }\n}",
            &["simultaneously {A says p; for i in 0..2 {(index child i) reveals q}}"],
        ),
        (
            "actual muddy[0] and not p",
            &["actual (and (index muddy 0) (not p))"],
        ),
        (
            "repeat max n {\n  checkpoint c\n  A: p\n} until knows(A, p)",
            &["repeat max n {checkpoint c; A says p} until (call knows A p)"],
        ),
        (
            "repeat max 3 { worlds } until\n  p",
            &["repeat max 3 {worlds None} until p"],
        ),
        (
            "assert_adds_ck p and q {\n  A: p\n}",
            &["assert_adds_ck (and p q) {A says p}"],
        ),
        (
            "assert_adds_ck x in {1} { announce p }",
            &["assert_adds_ck (in x (set 1)) {announce p}"],
        ),
        (
            "announce all(i in 0..n: muddy[i])",
            &["announce (all (i 0 n) (index muddy i))"],
        ),
        (
            "announce all(i in 0..n, j in i + 1..n if i != j: x[i] != x[j])",
            &["announce (all (i 0 n) (j (+ i 1) n) (if (!= i j)) (!= (index x i) (index x j)))"],
        ),
        (
            "announce sum(i in 0..3:\n  age[i]) == 10",
            &["announce (== (sum (i 0 3) (index age i)) 10)"],
        ),
        (
            "announce distinct(a, b, c) and distinct(x in {1}, y)",
            &["announce (and (call distinct a b c) (call distinct (in x (set 1)) y))"],
        ),
        (
            "announce abs(x - 1) < min(y, 2)",
            &["announce (< (call abs (- x 1)) (call min y 2))"],
        ),
        (
            "announce -a[0] * b[i]",
            &["announce (* (- (index a 0)) (index b i))"],
        ),
    ];
    for (src, want) in table {
        assert_eq!(stmts(src), *want, "{src:?}");
    }
}

#[test]
fn new_statement_spans() {
    let src = "for i in 0..2 {\n  child[i] learns x\n}\nif c { worlds } else { worlds }\nrepeat max 2 { worlds } until p\n";
    let story = parse_ok(src);
    let text = |s: Span| &src[s.start..s.end];
    let spans: Vec<&str> = story.statements.iter().map(|s| text(s.span)).collect();
    assert_eq!(
        spans,
        [
            "for i in 0..2 {\n  child[i] learns x\n}",
            "if c { worlds } else { worlds }",
            "repeat max 2 { worlds } until p",
        ]
    );
    let StmtKind::For { body, .. } = &story.statements[0].kind else {
        panic!()
    };
    assert_eq!(text(body.span), "{\n  child[i] learns x\n}");
    assert_eq!(text(body.statements[0].span), "child[i] learns x");
    let StmtKind::Learns { who, .. } = &body.statements[0].kind else {
        panic!()
    };
    assert_eq!(text(who.span), "child[i]");
}

#[test]
fn new_error_messages() {
    // (source, message, line, column, hints)
    let table: &[(&str, &str, usize, usize, &[&str])] = &[
        (
            "const n == 3",
            "expected `=` after `const n`, found `==`",
            1,
            9,
            &["write `const n = 3`"],
        ),
        (
            "const = 3",
            "expected a name after `const`, found `=`",
            1,
            7,
            &["write e.g. `const n = 3`"],
        ),
        (
            "const n",
            "expected `=` after `const n`, found end of input",
            1,
            8,
            &["write `const n = 3`"],
        ),
        (
            "enum E {}",
            "enum `E` needs at least one value",
            1,
            8,
            &["e.g. `enum E { a, b }`"],
        ),
        (
            "enum E red, green",
            "expected `{` after `enum E`, found `red`",
            1,
            8,
            &["write `enum E { a, b, c }`"],
        ),
        (
            "enum E { a b }",
            "expected `,` or `}`, found `b`",
            1,
            12,
            &[],
        ),
        ("enum E { a,", "unclosed `{`", 1, 8, &["add a matching `}`"]),
        (
            "bool p[3]\nannounce p[0][1]",
            "only one index is allowed",
            2,
            14,
            &["families have a single index: `p[0]`"],
        ),
        (
            "announce p[]",
            "expected an expression, found `]`",
            1,
            12,
            &[],
        ),
        (
            "announce p[0",
            "unclosed `[`",
            1,
            11,
            &["add a matching `]`"],
        ),
        (
            "child[0] says x",
            "expected `learns`, `:`, `reveals`, `expects` or `:=` after `child[0]`, found `says`",
            1,
            10,
            &[],
        ),
        (
            "characters A\nA reveal p",
            "expected `learns` or `:` after `A`",
            2,
            3,
            &["did you mean `reveals`?"],
        ),
        (
            "enum Colour { red }\nColur wall",
            "unknown statement starting with `Colur`",
            2,
            1,
            &["did you mean `Colour`?"],
        ),
        (
            "for i 0..3 { worlds }",
            "expected `in` after `for i`, found `0`",
            1,
            7,
            &["write `for i in 0..n { … }`"],
        ),
        (
            "for i in 0 { worlds }",
            "expected `..`, found `{`",
            1,
            12,
            &[
                "a range is written `a..b`: the integers from a up to b - 1; or list the values: `{0, 7, 35}`",
            ],
        ),
        (
            "for i in 0.3 { worlds }",
            "unexpected character `.`",
            1,
            11,
            &[
                "numbers have no decimals: a fraction is a division of integers, `1/3` (probabilities are exact); a range is written `a..b`",
            ],
        ),
        (
            "announce a == 1 . 2",
            "unexpected character `.`",
            1,
            17,
            &["a range is written `a..b`"],
        ),
        (
            "for i in 0..3 worlds",
            "expected `{` after the range of `for`, found `worlds`",
            1,
            15,
            &[],
        ),
        (
            "for i in 0..3\n{ worlds }",
            "expected `{` after the range of `for`, found end of line",
            1,
            14,
            &["a block starts with `{` on the same line"],
        ),
        (
            "for i in 0..3 { worlds",
            "unclosed `{`",
            1,
            15,
            &["add a matching `}`"],
        ),
        (
            "for i in 0..3 { worlds worlds }",
            "`worlds` takes a whole number, found `worlds`",
            1,
            24,
            &["e.g. `worlds 25`, or just `worlds` for up to 10"],
        ),
        (
            "if p then announce q",
            "expected `{`, found `then`",
            1,
            6,
            &[
                "a statement `if` takes a block: `if c { … }`; to announce a conditional fact, \
                   write `announce if c then … else …`",
            ],
        ),
        (
            "if p { worlds }\nelse { worlds }",
            "`else` must be on the same line as the `}` before it",
            2,
            1,
            &["write `} else`"],
        ),
        (
            "else { worlds }",
            "expected a statement, found `else`",
            1,
            1,
            &["`else` goes on the same line as the `}` that closes the `if` block: `} else {`"],
        ),
        (
            "repeat 3 { worlds } until p",
            "expected `max` after `repeat`, found `3`",
            1,
            8,
            &["write `repeat max 10 { … } until …`"],
        ),
        (
            "repeat max 3 { worlds }",
            "expected `until` after the block of `repeat`, found end of input",
            1,
            24,
            &["say when to stop: `repeat max 10 { … } until …`"],
        ),
        (
            "repeat max 3 { worlds }\nuntil p",
            "`until` must be on the same line as the `}` before it",
            2,
            1,
            &["write `} until`"],
        ),
        (
            "repeat max 3 { worlds } until",
            "expected an expression, found end of input",
            1,
            30,
            &[],
        ),
        (
            "simultaneously announce p",
            "expected `{` after `simultaneously`, found `announce`",
            1,
            16,
            &[],
        ),
        (
            "assert_adds_ck p\n{ worlds }",
            "expected `{` after the hint of `assert_adds_ck`, found end of line",
            1,
            17,
            &["a block starts with `{` on the same line"],
        ),
        (
            "announce all(i in 0..3 j in 0..3: p)",
            "expected `:` before the body, found `j`",
            1,
            24,
            &["write `all(i in 0..n: …)`"],
        ),
        (
            "announce all(i in 0..3, 4: p)",
            "expected another `name in a..b`, found `4`",
            1,
            25,
            &["write `all(i in 0..n, j in 0..n: …)`"],
        ),
        (
            "announce all(i in 0..3: p",
            "unclosed `(`",
            1,
            13,
            &["add a matching `)`"],
        ),
        (
            "announce all(i in 0..3: p q)",
            "expected `)`, found `q`",
            1,
            27,
            &[],
        ),
        (
            "}",
            "expected a statement, found `}`",
            1,
            1,
            &["this `}` has no matching `{`"],
        ),
        (
            "announce for",
            "expected an expression, found `for`",
            1,
            10,
            &["`for` is a keyword"],
        ),
        (
            "int until",
            "expected a name, found `until`",
            1,
            5,
            &["`until` is a keyword"],
        ),
    ];
    for &(src, message, line, col, hints) in table {
        let d = error(src);
        assert_eq!(d.message, message, "{src:?}");
        assert_eq!(line_col(src, d.span.start), (line, col), "{src:?}: {d:?}");
        assert_eq!(d.hints, hints, "{src:?}");
    }
}

#[test]
fn errors_inside_blocks_recover_at_the_next_line() {
    let src = "\
for i in 0..3 {
  announce a =
  child[i] learns
  worlds
  if p {
    announce )
  }
}
announce (
worlds
";
    assert_eq!(
        errors(src),
        [
            ("`=` is not an operator".to_string(), 2, 14),
            (
                "expected an expression, found end of line".to_string(),
                3,
                18
            ),
            ("expected an expression, found `)`".to_string(), 6, 14),
            ("unclosed `(`".to_string(), 9, 10),
        ]
    );
    // A bad header skips its whole block.
    let src = "for i 0..3 {\n  announce )\n}\nannounce )";
    assert_eq!(
        errors(src),
        [
            ("expected `in` after `for i`, found `0`".to_string(), 1, 7),
            ("expected an expression, found `)`".to_string(), 4, 10),
        ]
    );
    // Deeply nested blocks are an error, not a crash.
    let deep = format!("{}worlds{}", "if p { ".repeat(100), " }".repeat(100));
    assert_eq!(error(&deep).message, "blocks are nested too deeply");
    let long = format!(
        "if p {{ worlds }}{}",
        " else if p { worlds }".repeat(10_000)
    );
    assert_eq!(error(&long).message, "blocks are nested too deeply");
    let ok = format!("if p {{ worlds }}{}", " else if p { worlds }".repeat(50));
    parse_ok(&ok);
}

#[test]
fn empty_and_blank_stories() {
    for src in ["", "\n", "   \n\n  # only a comment\n", "# c", "\r\n\t\r\n"] {
        assert_eq!(
            parse(src),
            Ok(Story {
                statements: vec![],
                backend: None
            }),
            "{src:?}"
        );
    }
    // Windows line endings.
    assert_eq!(parse_ok("int a\r\nbool b\r\n").statements.len(), 2);
    // Last line without a newline.
    assert_eq!(parse_ok("int a\nannounce a > 1").statements.len(), 2);
}

#[test]
fn error_messages() {
    // (source, message, line, column, hints)
    let table: &[(&str, &str, usize, usize, &[&str])] = &[
        (
            "announce )",
            "expected an expression, found `)`",
            1,
            10,
            &[],
        ),
        (
            "announce (a + b",
            "unclosed `(`",
            1,
            10,
            &["add a matching `)`"],
        ),
        (
            "announce x in {1, 2",
            "unclosed `{`",
            1,
            15,
            &["add a matching `}`"],
        ),
        (
            "announce knows(A,\nworlds",
            "unclosed `(`",
            1,
            15,
            &["add a matching `)`"],
        ),
        (
            "announce if a then b",
            "expected `else`, found end of input",
            1,
            21,
            &[],
        ),
        (
            "announce if a else b",
            "expected `then`, found `else`",
            1,
            15,
            &[],
        ),
        (
            "announce a < b < c",
            "comparisons cannot be chained",
            1,
            16,
            &["use `and`: a < b and b < c"],
        ),
        (
            "announce 1 <= x < 5",
            "comparisons cannot be chained",
            1,
            17,
            &["use `and`: 1 <= x and x < 5"],
        ),
        (
            "announce a == b in {1}",
            "comparisons cannot be chained",
            1,
            17,
            &["use `and`, or parentheses"],
        ),
        ("announce a @ b", "unexpected character `@`", 1, 12, &[]),
        (
            "announce a = b",
            "`=` is not an operator",
            1,
            12,
            &["use `==` to compare"],
        ),
        (
            "announce ! a",
            "`!` is not an operator",
            1,
            10,
            &["use `not` or `!=`; an announcement is written `[! φ] ψ`"],
        ),
        (
            "announce a && b",
            "`&&` is not an operator",
            1,
            12,
            &["use `and`"],
        ),
        (
            "announce a || b",
            "`||` is not an operator",
            1,
            12,
            &["use `or`"],
        ),
        (
            "announce a => b",
            "`=>` is not an operator",
            1,
            12,
            &["use `->`"],
        ),
        (
            "announce a ≤ b",
            "unexpected character `≤`",
            1,
            12,
            &["use `<=`"],
        ),
        (
            "Albert knows month == 5",
            "expected `learns` or `:` after `Albert`",
            1,
            8,
            &["to announce it, write `announce knows(Albert, …)`"],
        ),
        (
            "announce Albert believes_value month",
            "expected end of line, found `believes_value`",
            1,
            17,
            &["the character goes inside the parentheses: `believes_value(Albert, …)`"],
        ),
        (
            "announce knows(all(d in 14..20: not (Bernard knows day == d)))",
            "expected `,` or `)`, found `knows`",
            1,
            46,
            &["the character goes inside the parentheses: `knows(Bernard, …)`"],
        ),
        (
            "Albert month",
            "expected `learns` or `:` after `Albert`",
            1,
            8,
            &[],
        ),
        (
            "Albert",
            "expected `learns` or `:` after `Albert`",
            1,
            7,
            &[],
        ),
        (
            "Albert learn month",
            "expected `learns` or `:` after `Albert`",
            1,
            8,
            &["did you mean `learns`?"],
        ),
        (
            "Albert says x",
            "expected `learns` or `:` after `Albert`",
            1,
            8,
            &["write `Albert: …` for what Albert says"],
        ),
        (
            "month == 5",
            "expected `learns` or `:` after `month`",
            1,
            7,
            &["to announce a fact, write `announce …`"],
        ),
        (
            "anounce x",
            "unknown statement starting with `anounce`",
            1,
            1,
            &["did you mean `announce`?"],
        ),
        (
            "character A",
            "unknown statement starting with `character`",
            1,
            1,
            &["did you mean `characters`?"],
        ),
        (
            "3 > 2",
            "expected a statement, found `3`",
            1,
            1,
            &["to announce a fact, write `announce …`"],
        ),
        ("characters 3", "expected a name, found `3`", 1, 12, &[]),
        (
            "int in",
            "expected a name, found `in`",
            1,
            5,
            &["`in` is a keyword"],
        ),
        (
            "characters A, if",
            "expected a name, found `if`",
            1,
            15,
            &["`if` is a keyword"],
        ),
        (
            "checkpoint",
            "expected a name, found end of input",
            1,
            11,
            &[],
        ),
        (
            "announce worlds > 3",
            "expected an expression, found `worlds`",
            1,
            10,
            &["`worlds` is a keyword"],
        ),
        (
            "announce",
            "expected an expression, found end of input",
            1,
            9,
            &[],
        ),
        (
            "announce a ==\n",
            "expected an expression, found end of input",
            1,
            14,
            &[],
        ),
        (
            "announce a ==\nworlds",
            "expected an expression, found end of line",
            1,
            14,
            &[],
        ),
        (
            "announce a b",
            "expected end of line, found `b`",
            1,
            12,
            &[],
        ),
        (
            "announce a)",
            "expected end of line, found `)`",
            1,
            11,
            &["this `)` has no matching opening bracket"],
        ),
        (
            "announce (a b)",
            "expected `,` or `)`, found `b`",
            1,
            13,
            &[],
        ),
        (
            "announce f(a b)",
            "expected `,` or `)`, found `b`",
            1,
            14,
            &[],
        ),
        (
            "announce x in {1 2}",
            "expected `,` or `}`, found `2`",
            1,
            18,
            &[],
        ),
        (
            "announce x in (1, 2)",
            "a set is written in braces, not parentheses",
            1,
            15,
            &["write `{1, 2}`"],
        ),
        (
            "announce age in n + 1",
            "expected `..` or a set `{…}` after `in`, found end of input",
            1,
            22,
            &["write a set, `x in {1, 2, 3}`, or a range, `x in 1..4` (from 1 up to 3)"],
        ),
        (
            "int a, age in 1..100",
            "expected end of line, found `in`",
            1,
            12,
            &[
                "an int is declared without its values: declare `int a, age`, then announce which it can take: `announce age in 1..100`",
            ],
        ),
        (
            "int day: {14, 15}",
            "expected end of line, found `:`",
            1,
            8,
            &[
                "an int is declared without its values: declare `int day`, then announce which it can take: `announce day in {14, 15}`",
            ],
        ),
        (
            "int day: {14,\n15}",
            "expected end of line, found `:`",
            1,
            8,
            &[
                "an int is declared without its values: declare `int day`, then announce which it can take: `announce day in {14, 15}`",
            ],
        ),
        (
            "int day = 14",
            "`=` is not an operator",
            1,
            9,
            &[
                "a constant is declared without its value: declare `int day`, then announce it: `announce day == 14`; a fixed number is a `const`: `const day = 14`",
            ],
        ),
        (
            "for k in 1..3 { int y = 3 }",
            "`=` is not an operator",
            1,
            23,
            &[
                "a constant is declared without its value: declare `int y`, then announce it: `announce y == 3`; a fixed number is a `const`: `const y = 3`",
            ],
        ),
        (
            "bool p, q = x > 2",
            "`=` is not an operator",
            1,
            11,
            &[
                "a constant is declared without its value: declare `bool p, q`, then announce it: `announce q == (x > 2)`",
            ],
        ),
        (
            "bool p, q = true",
            "`=` is not an operator",
            1,
            11,
            &[
                "a constant is declared without its value: declare `bool p, q`, then announce it: `announce q`",
            ],
        ),
        (
            "bool q = false",
            "`=` is not an operator",
            1,
            8,
            &[
                "a constant is declared without its value: declare `bool q`, then announce it: `announce not q`",
            ],
        ),
        (
            "int a[3], b = 3",
            "`=` is not an operator",
            1,
            13,
            &[
                "a constant is declared without its value: declare `int a[3], b`, then announce it: `announce b == 3`; a fixed number is a `const`: `const b = 3`",
            ],
        ),
        (
            "int day in {14, 15}",
            "expected end of line, found `in`",
            1,
            9,
            &[
                "an int is declared without its values: declare `int day`, then announce which it can take: `announce day in {14, 15}`",
            ],
        ),
        (
            "announce ()",
            "expected an expression, found `)`",
            1,
            11,
            &[],
        ),
        (
            "announce a == not b",
            "expected an expression, found `not`",
            1,
            15,
            &["`not` binds loosely: write `(not …)` here"],
        ),
        (
            "announce {1}",
            "expected an expression, found `{`",
            1,
            10,
            &["sets `{…}` only follow `in`"],
        ),
        (
            "worlds x",
            "`worlds` takes a whole number, found `x`",
            1,
            8,
            &["e.g. `worlds 25`, or just `worlds` for up to 10"],
        ),
        (
            "worlds -1",
            "`worlds` takes a whole number, found `-`",
            1,
            8,
            &["e.g. `worlds 25`, or just `worlds` for up to 10"],
        ),
        (
            "worlds 99999999999999999999",
            "integer literal too large",
            1,
            8,
            &[],
        ),
        (
            "announce 9223372036854775808",
            "integer literal too large",
            1,
            10,
            &["integers must be at most 9223372036854775807"],
        ),
        (
            "announce 12ab",
            "invalid number `12ab`",
            1,
            10,
            &["names cannot start with a digit"],
        ),
        (
            "learns x",
            "expected a statement, found `learns`",
            1,
            1,
            &["`learns` follows a character's name: `Albert learns month`"],
        ),
        (
            "int a;",
            "unexpected character `;`",
            1,
            6,
            &["a statement ends at the end of its line"],
        ),
        (
            "announce a and # x\n  @",
            "unexpected character `@`",
            2,
            3,
            &[],
        ),
    ];
    for &(src, message, line, col, hints) in table {
        let d = error(src);
        assert_eq!(d.message, message, "{src:?}");
        assert_eq!(line_col(src, d.span.start), (line, col), "{src:?}: {d:?}");
        assert_eq!(d.hints, hints, "{src:?}");
    }
}

#[test]
fn error_spans_point_at_the_token() {
    let src = "announce a && b";
    let d = error(src);
    assert_eq!(&src[d.span.start..d.span.end], "&&");
    let src = "Albert month";
    let d = error(src);
    assert_eq!(&src[d.span.start..d.span.end], "month");
}

#[test]
fn every_error_is_reported() {
    let src = "\
characters Albert, Bernard
int month, day
announce month = 5
Albert learns month
announce (day > 3
  and day < 10
Bernard learns day

announce day < month < 10
worlds
";
    assert_eq!(
        errors(src),
        [
            ("`=` is not an operator".to_string(), 3, 16),
            ("unclosed `(`".to_string(), 5, 10),
            ("comparisons cannot be chained".to_string(), 9, 22),
        ]
    );
}

#[test]
fn one_error_per_statement() {
    // The bad statement spans lines through its brackets; the rest still parses.
    let src = "announce a @ (b\n c @ d)\nannounce = \nworlds\n";
    assert_eq!(
        errors(src),
        [
            ("unexpected character `@`".to_string(), 1, 12),
            ("`=` is not an operator".to_string(), 3, 10)
        ]
    );
    // A trailing bad operator continues the line, so the next line is not a
    // second, confusing error.
    let src = "announce a =\n  b\nworlds";
    assert_eq!(errors(src), [("`=` is not an operator".to_string(), 1, 12)]);
}

#[test]
fn a_line_starting_with_and_or_continues_the_statement() {
    let src = "announce a\n  and b\n  or c ->\n  d\n  <-> e\nworlds";
    let story = parse(src).expect("parses");
    assert_eq!(story.statements.len(), 2);
    let StmtKind::Announce(formula) = &story.statements[0].kind else {
        panic!("an announcement: {:?}", story.statements[0])
    };
    assert_eq!(show(formula), "(<-> (-> (or (and a b) c) d) e)");
    // Inside a block too.
    let src = "for i in 0..2 {\n  announce a\n    and b\n}";
    assert!(parse(src).is_ok());
}

#[test]
fn a_line_starting_with_an_operator_is_one_error() {
    let src = "announce a\n  == b\n  + c\nannounce )";
    let diags = parse(src).unwrap_err();
    assert_eq!(diags.len(), 2, "{diags:?}");
    assert_eq!(diags[0].message, "expected a statement, found `==`");
    assert_eq!(line_col(src, diags[0].span.start), (2, 3));
    assert_eq!(
        diags[0].hints,
        ["to continue the previous statement, end its line with `==` instead"]
    );
    assert_eq!(diags[1].message, "expected an expression, found `)`");

    let src = "announce if c then 1\nelse 2\nworlds";
    let diags = parse(src).unwrap_err();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].message, "expected `else`, found end of line");
    assert_eq!(line_col(src, diags[0].span.start), (1, 21));
    assert_eq!(
        diags[0].hints,
        [
            "a statement continues on the next line only if this line ends with an operator or keyword; \
              move `else` to the end of this line"
        ]
    );
}

#[test]
fn unclosed_bracket_does_not_swallow_the_story() {
    let src = "announce (a and b\nAlbert learns month\nannounce )\n";
    assert_eq!(
        errors(src),
        [
            ("unclosed `(`".to_string(), 1, 10),
            ("expected an expression, found `)`".to_string(), 3, 10)
        ]
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("announce {}a{}", "(".repeat(10_000), ")".repeat(10_000));
    assert_eq!(error(&deep).message, "expression is nested too deeply");
    let long = format!("announce a{}", " + a".repeat(10_000));
    assert_eq!(error(&long).message, "expression is too large");
    let nots = format!("announce {}a", "not ".repeat(10_000));
    assert_eq!(error(&nots).message, "expression is too large");
    let ok = format!("announce {}a{}", "(".repeat(50), ")".repeat(50));
    parse_ok(&ok);
    let ok = format!("announce a{}", " + a".repeat(200));
    parse_ok(&ok);
}

/// A tiny deterministic PRNG (xorshift) for the no-panic test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn never_panics() {
    let pieces = [
        "characters",
        "int",
        "bool",
        "announce",
        "learns",
        "checkpoint",
        "worlds",
        "true",
        "false",
        "not",
        "and",
        "or",
        "if",
        "then",
        "else",
        "in",
        "knows",
        "const",
        "enum",
        "for",
        "simultaneously",
        "actual",
        "reveals",
        "repeat",
        "max",
        "until",
        "assert_adds_ck",
        "action",
        "do",
        "plan",
        "by",
        "keeping",
        "coordinated",
        "[",
        "]",
        "..",
        ".",
        "all(i in 0..3: x)",
        "for i in 0..2 {\n",
        "(",
        ")",
        "{",
        "}",
        ",",
        ":",
        "+",
        "-",
        "*",
        "/",
        "%",
        "==",
        "!=",
        "<",
        "<=",
        ">",
        ">=",
        "->",
        "<->",
        "=",
        "!",
        "&",
        "&&",
        "|",
        "@",
        "#",
        "\n",
        "\n",
        "\n",
        " ",
        "\t",
        "\r",
        "Albert",
        "x",
        "0",
        "7",
        "99999999999999999999999",
        "é",
        "≤",
        "💥",
        "\u{0}",
        ";",
        "\"",
        "_",
        "12ab",
    ];
    let story = "characters A, B\nint m, d\nannounce (m, d) in {(1, 2)}\nA learns m\nB: knows(A, m)\nworlds 3\n";
    let full = "const n = 2\nenum C { r, g }\ncharacters c[n]\nC w[n]\nfor i in 0..n {\n  if i != 0 { c[i] learns w[i] } else { worlds }\n}\nsimultaneously { c[0] reveals knows_value(w[1]) }\nrepeat max 2 {\n  actual w[0] == r\n} until all(i in 0..n: w[i] != g)\nassert_adds_ck true { announce true }\naction a[0] by c[0] if true { x\n  c[0] sees x }\ndo a[0]: x, a[0]\nplan all true max 2 keeping true coordinated\n";
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..20_000 {
        let mut src = String::new();
        for _ in 0..rng.below(30) {
            src.push_str(pieces[rng.below(pieces.len())]);
            if rng.below(2) == 0 {
                src.push(' ');
            }
        }
        check_no_panic(&src);
        // Garble a valid story: delete, duplicate or insert at random char positions.
        let base = if rng.below(2) == 0 { story } else { full };
        let chars: Vec<char> = base.chars().collect();
        let mut garbled: Vec<char> = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(garbled.len() + 1);
            match rng.below(3) {
                0 if i < garbled.len() => {
                    garbled.remove(i);
                }
                1 => garbled.insert(i, chars[rng.below(chars.len())]),
                _ => {
                    let piece = pieces[rng.below(pieces.len())];
                    for (k, c) in piece.chars().enumerate() {
                        garbled.insert(i + k, c);
                    }
                }
            }
        }
        check_no_panic(&garbled.into_iter().collect::<String>());
    }
    // Truncations of a valid story at every byte that is a char boundary.
    for base in [story, full] {
        parse_ok(base);
        for i in 0..=base.len() {
            check_no_panic(&base[..i]);
        }
    }
}

fn check_no_panic(src: &str) {
    if let Err(diags) = parse(src) {
        assert!(!diags.is_empty());
        for d in diags {
            assert!(
                d.span.start <= d.span.end && d.span.end <= src.len(),
                "{src:?}: {d:?}"
            );
            assert!(src.is_char_boundary(d.span.start) && src.is_char_boundary(d.span.end));
            let rendered = d.render("f.story", src);
            assert!(rendered.ends_with('\n'));
        }
    }
}

#[test]
fn events() {
    let table: &[(&str, &[&str])] = &[
        (
            "event move {\n  moved if marble == basket then marble := box\n  stayed\n  \
             Anne sees moved | stayed\n  Bob sees moved, stayed\n  Sally expects stayed\n  \
             actual moved\n}",
            &[
                "event move {moved if (== marble basket) then marble := box; stayed; \
               Anne sees moved | stayed; Bob sees moved, stayed; Sally expects stayed; \
               actual moved}",
            ],
        ),
        (
            "event roll {\n  for f in 1..7 {\n    face[f] then die := f, seen := true\n  }\n  \
             Alice sees each(f in 1..7: face[f])\n  Bob sees face\n}",
            &[
                "event roll {for f in 1..7 {face[f] then die := f, seen := true}; \
               Alice sees each(f in 1..7: face[f]); Bob sees face}",
            ],
        ),
        (
            "event call {\n  for i in 0..n { for j in i + 1..n { c[i, j] } }\n  \
             for k in 0..n {\n    P[k] sees each(i in 0..n, j in i + 1..n if i == k or j == k: c[i, j]) | others\n  }\n  \
             if t == 0 { actual c[0, 1] } else if t == 1 { actual c[2, 3] } else { actual c[0, 2] }\n}",
            &[
                "event call {for i in 0..n {for j in (+ i 1)..n {c[i, j]}}; \
               for k in 0..n {(index P k) sees each(i in 0..n, j in (+ i 1)..n if (or (== i k) (== j k)): c[i, j]) | others}; \
               if (== t 0) {actual c[0, 1]} else {if (== t 1) {actual c[2, 3]} else {actual c[0, 2]}}}",
            ],
        ),
        ("event e {\n  a, \n}", &[]),
        ("event e {}", &["event e {}"]),
        (
            "event e {\n  a if knows(A, p) and\n    q then x := 1, y :=\n    2\n  A sees a |\n    all(i in 0..2: b[i]), c\n}",
            &[
                "event e {a if (and (call knows A p) q) then x := 1, y := 2; A sees a | all(i in 0..2: b[i]), c}",
            ],
        ),
        (
            "event e {\n  a then x := 1,\n    b[0] := 2,\n    y := 3\n  c if p then\n    x := 2\n}\nx, y := 1,\n  2\nx,\n  y := 1, 2",
            &[
                "event e {a then x := 1, (index b 0) := 2, y := 3; c if p then x := 2}",
                "x, y := 1, 2",
                "x, y := 1, 2",
            ],
        ),
        (
            "event e {\n  a then for i in 0..n { s[i] := s[i] or t[i] }, x := 1\n  \
             b then y := 2, for i in 0..2 {\n    for j in 0..2 { s[j] := true }\n    t[i] := false\n  }\n}",
            &[
                "event e {a then for i in 0..n { (index s i) := (or (index s i) (index t i)) }, x := 1; \
                 b then y := 2, for i in 0..2 { for j in 0..2 { (index s j) := true }, (index t i) := false }}",
            ],
        ),
        (
            "prior if x then 2 else 1\nevent e {\n  a if p weight n + 1 then x := 1\n  b weight\n    2\n  c\n}\nshow probability(A, x) * 2",
            &[
                "prior (if x 2 1)",
                "event e {a if p weight (+ n 1) then x := 1; b weight 2; c}",
                "show (* (call probability A x) 2)",
            ],
        ),
        ("event e {\n  a weight\n}", &[]),
        (
            "x, y := y, x\nb[0], c := 1, b[0] + 1\ncheck actual x == 1",
            &[
                "x, y := y, x",
                "(index b 0), c := 1, (+ (index b 0) 1)",
                "check actual (== x 1)",
            ],
        ),
    ];
    for (src, expected) in table {
        if expected.is_empty() {
            assert!(parse(src).is_err(), "{src:?} parsed");
            continue;
        }
        let got: Vec<String> = parse_ok(src).statements.iter().map(show_stmt).collect();
        assert_eq!(&got, expected, "{src:?}");
    }
}

#[test]
fn event_errors() {
    // (source, message, line, column, hints)
    let table: &[(&str, &str, usize, usize, &[&str])] = &[
        (
            "event { a }",
            "expected a name after `event`, found `{`",
            1,
            7,
            &["write e.g. `event move { … }`"],
        ),
        (
            "event move\nannounce true",
            "expected `{` after `event move`, found end of line",
            1,
            11,
            &["a block starts with `{` on the same line"],
        ),
        (
            "event move {\n  moved if x == 1 marble := box\n}",
            "expected `weight`, `then` or end of line after the case's precondition, found `marble`",
            2,
            19,
            &[
                "a case is written `NAME if φ weight e then x := e, y := f` (`if`, `weight` and `then` optional)",
            ],
        ),
        (
            "event move {\n  moved then marble = box\n}",
            "expected `:=`, found `=`",
            2,
            21,
            &["a case's changes are written `then x := e, y := f`"],
        ),
        (
            "event move {\n  announce x\n}",
            "expected a case, a `sees` line, `actual`, `for` or `if` in the event's block, found `announce`",
            2,
            3,
            &["`announce` is a keyword"],
        ),
        (
            "event move {\n  A sees a |\n}",
            "expected a case, found end of line",
            2,
            13,
            &[],
        ),
        (
            "event move {\n  A[1, 2] sees a\n}",
            "only one index is allowed",
            2,
            3,
            &["families have a single index: `A[0]`"],
        ),
        (
            "x, y := 1",
            "2 names to change but 1 value",
            1,
            6,
            &["give one value per name, in the same order: `x, y := e, f`"],
        ),
        (
            "announce a | b",
            "expected end of line, found `|`",
            1,
            12,
            &["use `or`"],
        ),
    ];
    for (src, message, line, column, hints) in table {
        let diags = match parse(src) {
            Ok(story) => panic!("{src:?} parsed: {story:?}"),
            Err(diags) => diags,
        };
        let d = &diags[0];
        assert_eq!(d.message, *message, "{src:?}");
        assert_eq!(
            line_col(src, d.span.start),
            (*line, *column),
            "{src:?}: {}",
            d.message
        );
        let got: Vec<&str> = d.hints.iter().map(String::as_str).collect();
        assert_eq!(&got, hints, "{src:?}");
    }
}

#[test]
fn continuation_lines_in_events_and_after_comments() {
    let src = "event move {\n  moved if marble == basket\n    then marble := box\n  stayed\n  \
               Anne sees moved\n    | stayed\n}\nannounce a == 1 and\n  # a comment\n  b == 2\n\
               announce c\n  # a comment\n\n  or d\ncharacters A\n  , B";
    assert_eq!(
        stmts(src),
        [
            "event move {moved if (== marble basket) then marble := box; stayed; \
             Anne sees moved | stayed}",
            "announce (and (== a 1) (== b 2))",
            "announce (or c d)",
            "characters A B",
        ]
    );
}

#[test]
fn learns_several_values() {
    assert_eq!(
        stmts("Anne learns A, B[1] + 1,\n  c\nAnne learns d"),
        ["Anne learns A, (+ (index B 1) 1), c", "Anne learns d"]
    );
}

#[test]
fn lists_of_values() {
    assert_eq!(
        stmts("for c in {0, 7, n + 1} { announce x != c }"),
        ["for c in {0, 7, (+ n 1)} {announce (!= x c)}"]
    );
    assert_eq!(
        expr("sum(i in {1, 3}: x[i]) + count(i in {2}, j in 0..2 if i != j: p)"),
        "(+ (sum (i (list 1 3)) (index x i)) (count (i (list 2)) (j 0 2) (if (!= i j)) p))"
    );
    assert_eq!(
        expr("all(i in {1,\n 3}, j in {4}: p)"),
        "(all (i (list 1 3)) (j (list 4)) p)"
    );
    // A membership stays a membership.
    assert_eq!(expr("any(x in {1, 2})"), "(call any (in x (set 1 2)))");
    assert_eq!(
        stmts("event e {\n  for c in {1, 2} { a[c] }\n  A sees each(i in {1, 2}: a[i])\n}"),
        ["event e {for c in {1, 2} {a[c]}; A sees each(i in {1, 2}: a[i])}"]
    );
    let d = error("for c in {} { worlds }");
    assert_eq!(d.message, "a list of values needs at least one value");
    assert_eq!(line_col("for c in {} { worlds }", d.span.start), (1, 10));
    assert_eq!(d.hints, ["e.g. `for c in {0, 7, 35} { … }`"]);
}

#[test]
fn messages_for_what_the_language_lacks() {
    let table: &[(&str, &str, usize, usize, &[&str])] = &[
        (
            "real A",
            "unknown type `real`",
            1,
            1,
            &[
                "the types are `int` and `bool`, and the enums the story declares \
               (`enum Colour { red, green }`)",
            ],
        ),
        (
            "enum Colour { red }\nstring a, b[2]",
            "unknown type `string`",
            2,
            1,
            &["the types are `int`, `bool` and `Colour`"],
        ),
        (
            "announce A ^ 2 == 4",
            "there is no power operator `^`",
            1,
            12,
            &["multiply instead: `A * A`"],
        ),
        (
            "announce b[i] ^ 3 == 4",
            "there is no power operator `^`",
            1,
            15,
            &["multiply instead: `b[i] * b[i] * b[i]`"],
        ),
        (
            "announce (a + 1) ^ n == 4",
            "there is no power operator `^`",
            1,
            18,
            &["multiply instead: `x * x` for x to the power 2"],
        ),
        (
            "announce ^",
            "unexpected character `^`",
            1,
            10,
            &["there is no power operator: multiply, e.g. `x * x`"],
        ),
    ];
    for &(src, message, line, col, hints) in table {
        let d = error(src);
        assert_eq!(d.message, message, "{src:?}");
        assert_eq!(line_col(src, d.span.start), (line, col), "{src:?}: {d:?}");
        assert_eq!(d.hints, hints, "{src:?}");
    }
    // A declared character (or a capitalised name) followed by a name is still read as
    // a character statement missing its `learns`.
    for src in [
        "characters child\nchild month",
        "Albert month",
        "anne learn",
    ] {
        let d = error(src);
        assert!(
            d.message.starts_with("expected `learns` or `:` after"),
            "{src:?}: {d:?}"
        );
    }
}

#[test]
fn the_backend_setting() {
    use crate::ast::Backend;
    let src = "#!/usr/bin/env epipen\n# A story.\n  #! backend bdd   # pinned\n\nbool p\n";
    let story = parse_ok(src);
    let (backend, span) = story.backend.expect("a backend");
    assert_eq!(backend, Backend::Bdd);
    assert_eq!(&src[span.start..span.end], "bdd");
    for (name, backend) in [
        ("auto", Backend::Auto),
        ("z3", Backend::Z3),
        ("explicit", Backend::Explicit),
    ] {
        let story = parse_ok(&format!("#! backend {name}"));
        assert_eq!(story.backend.map(|b| b.0), Some(backend));
        assert_eq!(backend.name(), name);
    }
    assert_eq!(parse_ok("bool p # #! backend z3").backend, None);
    let table: &[(&str, &str, usize, usize, &[&str])] = &[
        (
            "#! backend cvc5\nbool p",
            "unknown backend `cvc5`",
            1,
            12,
            &["the backends are `auto`, `z3`, `bdd` and `explicit`"],
        ),
        (
            "#! backend",
            "expected a backend after `#! backend`",
            1,
            11,
            &["the backends are `auto`, `z3`, `bdd` and `explicit`"],
        ),
        (
            "#!backends z3",
            "unknown setting `backends`",
            1,
            3,
            &["the only setting is the backend: `#! backend z3`"],
        ),
        (
            "#!",
            "expected a setting after `#!`",
            1,
            1,
            &["e.g. `#! backend z3`; a comment is written `# …`"],
        ),
        (
            "#! backend z3 now",
            "expected end of line, found `now`",
            1,
            15,
            &[],
        ),
        (
            "#! backend z3\n#! backend bdd",
            "the backend is set twice",
            2,
            4,
            &["keep one `#! backend …` line"],
        ),
        (
            "bool p\n  #! backend z3",
            "a setting `#!` goes before the first statement",
            2,
            3,
            &["move it to the top of the story; a comment is written `# …`"],
        ),
    ];
    for &(src, message, line, col, hints) in table {
        let d = error(src);
        assert_eq!(d.message, message, "{src:?}");
        assert_eq!(line_col(src, d.span.start), (line, col), "{src:?}: {d:?}");
        assert_eq!(d.hints, hints, "{src:?}");
    }
    // With syntax errors too, in source order.
    let diags = parse("#! backend x\nannounce )").unwrap_err();
    let messages: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        ["unknown backend `x`", "expected an expression, found `)`"]
    );
}

#[test]
fn announcements_are_prefix_operators_that_bind_like_not() {
    assert_eq!(expr("[! p] q and r"), "(and (box! [] p q) r)");
    assert_eq!(expr("[?! p or q] not r"), "(box?! [] (or p q) (not r))");
    assert_eq!(
        expr("[A, child[1] ! p] [! q] x == 1"),
        "(box! [A (index child 1)] p (box! [] q (== x 1)))"
    );
    assert_eq!(expr("<! p> q"), "(dia! [] p q)");
    assert_eq!(expr("<A ?! x >= 2> q"), "(dia?! [A] (>= x 2) q)");
    // Inside `<…>` a `>` closes; in parentheses it compares.
    assert_eq!(expr("<! (x > 2)> x > 3"), "(dia! [] (> x 2) (> x 3))");
    assert_eq!(expr("not [! p] q"), "(not (box! [] p q))");
}

#[test]
fn quantifiers_extend_as_far_right_as_possible() {
    assert_eq!(expr("forall p, q: p or q"), "(forall [p q] (or p q))");
    assert_eq!(
        expr("r and exists p[0]: p[0] and r"),
        "(and r (exists [(index p 0)] (and (index p 0) r)))"
    );
}

#[test]
fn a_malformed_announcement_is_located() {
    let d = error("announce [p q] r");
    assert!(d.message.contains("`,`, `!` or `?!`"), "{}", d.message);
    assert_eq!(d.span.start, 12);
    let d = error("announce <! p q");
    assert!(d.message.contains("`>`"), "{}", d.message);
    assert!(
        d.hints.iter().any(|h| h.contains("parentheses")),
        "{:?}",
        d.hints
    );
}

#[test]
fn actions_do_and_plan() {
    let table: &[(&str, &[&str])] = &[
        (
            "action flip {\n  heads then c := true\n  tails\n  A sees heads | tails\n  B expects heads\n}",
            &["action flip {heads then c := true; tails; A sees heads | tails; B expects heads}"],
        ),
        (
            "action peek by Anne if not knows(Anne, p) {\n  looked\n}",
            &["action peek by Anne if (not (call knows Anne p)) {looked}"],
        ),
        // A family of actions inside nested `for` and `if`, its owner a member.
        (
            "for i in 0..n {\n  for j in 0..n {\n    if i != j {\n      \
             action call[i, j] by P[i] if s[i] {\n        c then s[j] := true\n        \
             P[i] sees c\n      }\n    }\n  }\n}",
            &[
                "for i in 0..n {for j in 0..n {if (!= i j) {action call[i, j] by (index P i) \
                 if (index s i) {c then (index s j) := true; (index P i) sees c}}}}",
            ],
        ),
        // `actual` parses in an action's body (lowering refuses it).
        (
            "action a {\n  x\n  actual x\n}",
            &["action a {x; actual x}"],
        ),
        ("do a", &["do a"]),
        ("do a, b: c, call[0, 1]", &["do a, b: c, call[0, 1]"]),
        (
            "do call[i, i + 1]: c[i], flip\ndo a,\n  b",
            &["do call[i, (+ i 1)]: c[i], flip", "do a, b"],
        ),
        ("plan p", &["plan p"]),
        (
            "plan all p and q max 3 keeping not r coordinated",
            &["plan all (and p q) max 3 keeping (not r) coordinated"],
        ),
        // `all` followed by a binder in a parenthesis opens an aggregate (as in any
        // expression), anything else is the keyword.
        (
            "plan all all(i in 0..3: p[i])",
            &["plan all (all (i 0 3) (index p i))"],
        ),
        (
            "plan all(i in 0..3: p[i]) max n",
            &["plan (all (i 0 3) (index p i)) max n"],
        ),
        ("plan all (p)", &["plan all p"]),
        // Not a binder and its `:`: the parenthesis is the goal's, `all` the keyword.
        (
            "plan all (x in {1, 2}) or p",
            &["plan all (or (in x (set 1 2)) p)"],
        ),
        (
            "plan all (exists p: forall q: p -> q) max 3",
            &["plan all (exists [p] (forall [q] (-> p q))) max 3"],
        ),
        (
            "plan all (e in {s} -> count(i in 0..2: p[i]) > 0)",
            &["plan all (-> (in e (set s)) (> (count (i 0 2) (index p i)) 0))"],
        ),
        ("plan all p", &["plan all p"]),
        (
            "plan knows(A, p) max n + 1 coordinated",
            &["plan (call knows A p) max (+ n 1) coordinated"],
        ),
        ("plan p max -1", &["plan p max (- 1)"]),
        (
            "plan max(x, 2) > 1 max 2",
            &["plan (> (call max x 2) 1) max 2"],
        ),
        (
            "plan p keeping q\nplan p\n  keeping q\n  coordinated\nannounce r",
            &[
                "plan p keeping q",
                "plan p keeping q coordinated",
                "announce r",
            ],
        ),
        // Inside blocks.
        (
            "repeat max 3 {\n  do a\n  plan p max 2\n} until q",
            &["repeat max 3 {do a; plan p max 2} until q"],
        ),
        // A statement start ends an unclosed bracket's line.
        ("announce (a\nplan p", &[]),
    ];
    for (src, expected) in table {
        if expected.is_empty() {
            assert!(parse(src).is_err(), "{src:?} parsed");
            continue;
        }
        let got: Vec<String> = parse_ok(src).statements.iter().map(show_stmt).collect();
        assert_eq!(&got, expected, "{src:?}");
    }
    // The spans: a `do` item is its action's name as written; `coordinated` is located.
    let src = "do a, call[0, 1]: c";
    let StmtKind::Do(items) = &parse_ok(src).statements[0].kind else {
        panic!()
    };
    let spans: Vec<&str> = items
        .iter()
        .map(|i| &src[i.action.span.start..i.action.span.end])
        .collect();
    assert_eq!(spans, ["a", "call[0, 1]"]);
    let case = items[1].case.as_ref().unwrap();
    assert_eq!(&src[case.span.start..case.span.end], "c");
    let src = "plan p max 2 coordinated";
    let StmtKind::Plan(plan) = &parse_ok(src).statements[0].kind else {
        panic!()
    };
    let at = plan.coordinated.unwrap();
    assert_eq!(&src[at.start..at.end], "coordinated");
    // The new words are keywords.
    for word in ["action", "do", "plan", "by", "keeping", "coordinated"] {
        assert!(crate::is_keyword(word), "{word}");
    }
    assert!(!crate::is_keyword("max") && !crate::is_keyword("all"));
}

#[test]
fn action_do_and_plan_errors() {
    // (source, message, line, column, hints)
    let table: &[(&str, &str, usize, usize, &[&str])] = &[
        (
            "action { a }",
            "expected a name after `action`, found `{`",
            1,
            8,
            &["write e.g. `action flip { … }`"],
        ),
        (
            "action flip\n{ a }",
            "expected `by`, `if` or `{` after `action flip`, found end of line",
            1,
            12,
            &["a block starts with `{` on the same line"],
        ),
        (
            "action flip by { a }",
            "expected a character after `by`, found `{`",
            1,
            16,
            &["write `action flip by A { … }`"],
        ),
        (
            "action call[0, 1] by A B { a }",
            "expected `if` or `{` after the action's owner, found `B`",
            1,
            24,
            &["an action is written `action NAME by A if φ { cases }` (`by` and `if` optional)"],
        ),
        (
            "action flip if p q { a }",
            "expected `{` after the action's condition, found `q`",
            1,
            18,
            &["an action is written `action NAME by A if φ { cases }` (`by` and `if` optional)"],
        ),
        (
            "action flip {\n  announce p\n}",
            "expected a case, a `sees` line, `actual`, `for` or `if` in the event's block, found `announce`",
            2,
            3,
            &["`announce` is a keyword"],
        ),
        (
            "do",
            "expected an action after `do`, found end of input",
            1,
            3,
            &["write e.g. `do flip, call[0, 1]: c` (`: CASE` optional)"],
        ),
        (
            "do a,",
            "expected an action after `,`, found end of input",
            1,
            6,
            &["write e.g. `do flip, call[0, 1]: c` (`: CASE` optional)"],
        ),
        (
            "do a: 3",
            "expected a case after `:`, found `3`",
            1,
            7,
            &["write `do a: CASE`, CASE one of the action's cases"],
        ),
        (
            "do a b",
            "expected `:`, `,` or end of line after the action, found `b`",
            1,
            6,
            &["actions are done in order: `do a, b: CASE, c`"],
        ),
        (
            "do a: b c",
            "expected `,` or end of line after the case, found `c`",
            1,
            9,
            &["actions are done in order: `do a, b: CASE, c`"],
        ),
        (
            "plan",
            "expected the plan's goal after `plan`, found end of input",
            1,
            5,
            &[
                "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)",
            ],
        ),
        (
            "plan all max 3",
            "expected the plan's goal after `plan all`, found `max`",
            1,
            10,
            &[
                "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)",
            ],
        ),
        (
            "plan p coordinated max 3",
            "expected end of line after `coordinated`, found `max`",
            1,
            20,
            &[
                "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)",
            ],
        ),
        (
            "plan p keeping q max 3",
            "expected `coordinated` or end of line after the plan's invariant, found `max`",
            1,
            18,
            &[
                "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)",
            ],
        ),
        (
            "plan p max 3 4",
            "expected `keeping`, `coordinated` or end of line after `max`, found `4`",
            1,
            14,
            &[
                "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)",
            ],
        ),
        (
            "plan p q",
            "expected `max`, `keeping`, `coordinated` or end of line after the plan's goal, found `q`",
            1,
            8,
            &[
                "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)",
            ],
        ),
        (
            "bool plan",
            "expected a name, found `plan`",
            1,
            6,
            &["`plan` is a keyword"],
        ),
        (
            "announce by",
            "expected an expression, found `by`",
            1,
            10,
            &["`by` is a keyword"],
        ),
        (
            "plann p",
            "unknown statement starting with `plann`",
            1,
            1,
            &["did you mean `plan`?"],
        ),
    ];
    for (src, message, line, column, hints) in table {
        let diags = match parse(src) {
            Ok(story) => panic!("{src:?} parsed: {story:?}"),
            Err(diags) => diags,
        };
        let d = &diags[0];
        assert_eq!(d.message, *message, "{src:?}");
        assert_eq!(
            line_col(src, d.span.start),
            (*line, *column),
            "{src:?}: {}",
            d.message
        );
        let got: Vec<&str> = d.hints.iter().map(String::as_str).collect();
        assert_eq!(&got, hints, "{src:?}");
    }
}
