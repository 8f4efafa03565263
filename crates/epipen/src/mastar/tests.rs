//! mA* as deep's grammar reads it (precedences, negation, names with parameters), the
//! checks with their located errors, and the story each construct becomes.

use super::lex::lex;
use super::parse::{Form, FormKind, Sign, parse};

const HEAD: &str = "fluent f, g, h, at(a,1);\naction x;\nagent a, b;\n";

/// The goal `src` as an s-expression.
fn sexp(src: &str) -> String {
    let text = format!("{HEAD}goal {src};");
    let tokens = lex(&text).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    let input = parse(&tokens).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    show(&input.goals[0])
}

fn show(f: &Form) -> String {
    let group = |g: &[super::Name]| {
        let names: Vec<&str> = g.iter().map(|n| n.text.as_str()).collect();
        names.join(" ")
    };
    match &f.kind {
        FormKind::Lit(l) => match l.sign {
            Sign::Pos => l.fluent.text.clone(),
            Sign::Neg => format!("-{}", l.fluent.text),
        },
        FormKind::And(a, b) => format!("(, {} {})", show(a), show(b)),
        FormKind::Or(a, b) => format!("(| {} {})", show(a), show(b)),
        FormKind::Not(a) => format!("(not {})", show(a)),
        FormKind::B(i, a) => format!("(B {} {})", i.text, show(a)),
        FormKind::C(g, a) => format!("(C [{}] {})", group(g), show(a)),
        FormKind::E(g, a) => format!("(E [{}] {})", group(g), show(a)),
    }
}

/// The first error of the file `HEAD` + `rest`: (line, column, message, hint).
fn error(rest: &str) -> (usize, usize, String, Option<String>) {
    let text = format!("{HEAD}{rest}");
    let d = match lex(&text) {
        Err(d) => d,
        Ok(tokens) => match parse(&tokens) {
            Err(d) => d,
            Ok(input) => match super::check::check(&input) {
                Err(ds) => ds.into_iter().next().unwrap(),
                Ok(_) => panic!("no error in {rest}"),
            },
        },
    };
    let (line, col) = crate::syntax::line_col(&text, d.span.start);
    (line, col, d.message, d.hints.first().cloned())
}

#[test]
fn comma_binds_tighter_than_or_both_to_the_left() {
    assert_eq!(sexp("f, g | h"), "(| (, f g) h)");
    assert_eq!(sexp("f | g, h"), "(| f (, g h))");
    assert_eq!(sexp("f, g, h"), "(, (, f g) h)");
    assert_eq!(sexp("(f | g), h"), "(, (| f g) h)");
}

#[test]
fn minus_negates_a_fluent_and_in_parentheses_a_formula() {
    assert_eq!(sexp("-f, g"), "(, -f g)");
    // `(-f, g)` starts with a literal: (¬f ∧ g), as the benchmarks mean it.
    assert_eq!(sexp("(-f, g) | h"), "(| (, -f g) h)");
    assert_eq!(sexp("(-B(a, f))"), "(not (B a f))");
    assert_eq!(sexp("(-(f, g))"), "(not (, f g))");
    assert_eq!(sexp("(-B(a, f), g)"), "(not (, (B a f) g))");
}

#[test]
fn belief_operators_and_names_with_parameters() {
    assert_eq!(sexp("B(a, B(b, -f))"), "(B a (B b -f))");
    assert_eq!(sexp("C([a, b], f, g)"), "(C [a b] (, f g))");
    assert_eq!(sexp("E([a], f) | at(a, 1)"), "(| (E [a] f) at(a,1))");
    assert_eq!(sexp("B(a, f), g"), "(, (B a f) g)");
}

#[test]
fn syntax_errors_are_located_with_a_hint() {
    let (line, col, message, hint) = error("goal -B(a, f);");
    assert_eq!((line, col), (4, 7));
    assert_eq!(message, "expected a fluent after `-`, found `B`");
    assert_eq!(
        hint.as_deref(),
        Some("a formula is negated in parentheses: `(-B(a, f))`")
    );
    let (line, col, message, hint) = error("goal f & g;");
    assert_eq!(
        (line, col, message.as_str()),
        (4, 8, "unexpected character `&`")
    );
    assert_eq!(hint.as_deref(), Some("conjunction is written `,`"));
    let (line, col, message, _) = error("goal f;\nfluent q;");
    assert_eq!((line, col), (5, 1));
    assert_eq!(message, "a `fluent` declaration after a `goal` line");
    let (_, _, message, hint) = error("goal D;");
    assert_eq!(message, "expected a formula, found `D`");
    assert_eq!(
        hint.as_deref(),
        Some("`D` is a word deep's scanner reserves: no name can be spelled so")
    );
    let (line, col, message, _) = error("goal f");
    assert_eq!((line, col), (4, 7));
    assert_eq!(
        message,
        "expected `,`, `|` or `;`, found the end of the file"
    );
}

#[test]
fn undeclared_names_are_named_with_the_closest() {
    let (line, col, message, hint) = error("x causes gg;\ninitially f, g, h, at(a,1);\ngoal f;");
    assert_eq!((line, col), (4, 10));
    assert_eq!(message, "the fluent `gg` is not declared");
    assert_eq!(hint.as_deref(), Some("did you mean `g`?"));
    let (_, _, message, hint) = error("y causes g;\ninitially f, g, h, at(a,1);\ngoal f;");
    assert_eq!(message, "the action `y` is not declared");
    assert_eq!(hint.as_deref(), Some("did you mean `x`?"));
    let (_, _, message, hint) = error("initially f, g, h, at(a,1);\ngoal B(zed, f);");
    assert_eq!(message, "the agent `zed` is not declared");
    assert_eq!(hint.as_deref(), Some("the agents declared are `a`, `b`"));
}

#[test]
fn what_deep_refuses_or_epipen_does_not_translate_is_refused_by_name() {
    let (_, _, message, _) = error("initially f, g, h, at(a,1);\ninitially B(a, f);\ngoal f;");
    assert_eq!(message, "an initial belief outside `C([…], …)`");
    let (_, _, message, _) = error("initially f, g, h, at(a,1);\ninitially C([a], f);\ngoal f;");
    assert_eq!(message, "an initial common knowledge of some agents only");
    let (_, _, message, _) = error("initially f, g, h, at(a,1);");
    assert_eq!(message, "the file has no `goal`");
    let (_, _, message, _) =
        error("x causes f;\nx determines g;\ninitially f, g, h, at(a,1);\ngoal f;");
    assert_eq!(
        message,
        "the action `x` both causes and determines: mA* gives an action one kind of effect"
    );
    let (_, _, message, _) = error("x causes f if B(a, g);\ninitially f, g, h, at(a,1);\ngoal f;");
    assert_eq!(
        message,
        "a condition with beliefs on `causes`: epipen translates conditions on fluents only"
    );
    let (_, _, message, _) =
        error("x causes f;\nb aware_of x;\ninitially f, g, h, at(a,1);\ngoal f;");
    assert_eq!(
        message,
        "`b` is aware of the ontic action `x`: mA* gives ontic actions full observers and \
         oblivious agents only"
    );
}

/// The story of a small file, whole: every construct's translation.
#[test]
fn the_story_of_a_small_domain() {
    let src = "fluent f, g, at(a,1);\naction flip, look, say;\nagent a, b;\n\
               flip causes f if g;\nflip causes -g;\na observes flip;\nb observes flip if at(a,1);\n\
               executable look if B(a, g);\nlook determines f;\na observes look;\nb aware_of look;\n\
               say announces f;\na observes say;\nb observes say;\n\
               initially -f, g, at(a,1);\ninitially C([a, b], at(a,1));\n\
               initially C([a, b], B(a, g) | B(a, -g));\ngoal E([a, b], f), B(a, g);\n";
    let story = super::story("t.txt", src, 3).unwrap_or_else(|f| panic!("{f:?}"));
    assert_eq!(
        story,
        "# t.txt, mA* as an epipen story (epipen plan)\n\
         characters a, b\n\
         bool f, g, at_a_1, here\n\
         announce at_a_1\n\
         a learns g\n\
         # `here` marks the actual world (its twin, alike but for `here`, stands for it where \
         nothing happened)\n\
         announce here -> at_a_1 and not f and g\n\
         actual here\n\
         \n# line 4: flip\n\
         action flip[0] if at_a_1 {\n  happened then f := f or g, g := false\n}\n\
         action flip[1] if not at_a_1 {\n  happened then f := f or g, g := false\n  \
         nothing if not here\n  a sees happened | nothing\n  b expects nothing\n}\n\
         \n# line 8: look\n\
         action look if believes(a, g) {\n  outcome[0] if f\n  outcome[1] if not f\n  \
         a sees outcome[0] | outcome[1]\n}\n\
         \n# line 12: say\n\
         action say if f {\n  outcome[0] if f\n  outcome[1] if not f\n  \
         a sees outcome[0] | outcome[1]\n  b sees outcome[0] | outcome[1]\n}\n\
         \n# the goal\n\
         plan ((believes(a, f) and believes(b, f)) and believes(a, g)) max 3\n"
    );
}

/// `C([…], φ)`: common knowledge when no action leaves an agent oblivious (belief is
/// knowledge then); otherwise common belief unfolded `COMMON_DEPTH` levels.
#[test]
fn common_belief_is_common_knowledge_without_oblivious_agents() {
    let public = "fluent f;\naction x;\nagent a, b;\nx causes f;\na observes x;\nb observes x;\n\
                  initially -f;\ngoal C([a, b], f);\n";
    let story = super::story("t.txt", public, 3).unwrap();
    assert!(
        story.ends_with("plan common_knowledge(a, b, f) max 3\n"),
        "{story}"
    );
    let private = public.replace("b observes x;\n", "");
    let story = super::story("t.txt", &private, 3).unwrap();
    let goal = story.lines().last().unwrap();
    assert_eq!(
        goal.matches("believes(a, ").count(),
        (1 << super::COMMON_DEPTH) - 1,
        "{goal}"
    );
    assert!(
        goal.starts_with("plan (believes(a, (f and (believes(a, (f and "),
        "{goal}"
    );
}

/// A fluent the `initially` literals leave out is false, as in deep's initial world, or
/// true where the initial common knowledge says so.
#[test]
fn unlisted_fluents_take_deeps_values() {
    let src = "fluent f, g, h;\naction x;\nagent a;\nx causes f;\na observes x;\n\
               initially f;\ninitially C([a], h);\ngoal f;\n";
    let story = super::story("t.txt", src, 3).unwrap();
    assert!(story.contains("\nactual f and not g and h\n"), "{story}");
}

/// An actual world the initial common knowledge rules out (deep would have no pointed
/// world) is a mistake at the formula, naming the values it reads.
#[test]
fn an_actual_world_the_common_knowledge_rules_out_is_located() {
    let (line, col, message, hint) =
        error("initially -f, g, at(a,1);\ninitially C([a, b], f | -g);\ngoal f;");
    assert_eq!((line, col), (5, 21));
    assert_eq!(
        message,
        "the actual world of `initially` is not among the worlds this common knowledge allows"
    );
    assert_eq!(
        hint.as_deref(),
        Some("the actual world has `-f`, `g`: change the `initially` literals or this formula")
    );
    let (_, _, _, hint) = error("initially f;\ninitially C([a, b], -f | h);\ngoal f;");
    assert_eq!(
        hint.as_deref(),
        Some(
            "the actual world has `f`, `-h` (not in `initially`: taken as deep takes it): \
             change the `initially` literals or this formula"
        )
    );
    // Allowed, it reads as before.
    let src = format!("{HEAD}initially -f, g, at(a,1);\ninitially C([a, b], f | g);\ngoal f;");
    assert!(super::story("t.txt", &src, 3).is_ok());
}
