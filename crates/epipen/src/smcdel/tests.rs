//! SMCDEL's grammar as its lexer and parser read it: precedences, the reach of prefix
//! forms, spellings, and located errors.

use super::lex::lex;
use super::parse::{Form, FormKind, parse};

/// The formula of `VALID? src` as an s-expression.
fn sexp(src: &str) -> String {
    let text = format!("VARS 1,2,3,4\nLAW Top\nOBS a: 1\n b: 2\nVALID? {src}");
    let tokens = lex(&text).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    let input = parse(&tokens).unwrap_or_else(|d| panic!("{src}: {}", d.message));
    show(&input.jobs[0].form)
}

fn show(x: &Form) -> String {
    let f = x;
    let list = |head: &str, fs: &[Form]| {
        let items: Vec<String> = fs.iter().map(show).collect();
        format!("({head} {})", items.join(" "))
    };
    match &f.kind {
        FormKind::Top => "T".into(),
        FormKind::Bot => "F".into(),
        FormKind::Atom(a) => a.n.to_string(),
        FormKind::Neg(a) => format!("(~ {})", show(a)),
        FormKind::Conj(fs) => list("&", fs),
        FormKind::Disj(fs) => list("|", fs),
        FormKind::Xor(fs) => list("xor", fs),
        FormKind::OneOf(fs) => list("oneof", fs),
        FormKind::Impl(a, b) => format!("(-> {} {})", show(a), show(b)),
        FormKind::Equi(a, b) => format!("(iff {} {})", show(a), show(b)),
        FormKind::K(a, g) => format!("(K {} {})", a.name, show(g)),
        FormKind::Kw(a, gs) => list(&format!("Kw {}", a.name), gs),
        FormKind::Ck(g, w, f) | FormKind::Dk(g, w, f) => {
            let op = if matches!(x.kind, FormKind::Ck(..)) {
                "C"
            } else {
                "D"
            };
            let names: Vec<&str> = g.iter().map(|a| a.name.as_str()).collect();
            let w = if *w { "w" } else { "" };
            format!("({op}{w} [{}] {})", names.join(" "), show(f))
        }
        FormKind::Announce {
            group,
            whether,
            diamond,
            formula,
            body,
        } => {
            let names: Vec<&str> = group.iter().map(|a| a.name.as_str()).collect();
            format!(
                "({}{} [{}] {} {})",
                if *diamond { "<>" } else { "[]" },
                if *whether { "?" } else { "" },
                names.join(" "),
                show(formula),
                show(body)
            )
        }
        FormKind::Quantified(all, atoms, g) => {
            let ns: Vec<String> = atoms.iter().map(|a| a.n.to_string()).collect();
            format!(
                "({} [{}] {})",
                if *all { "A" } else { "E" },
                ns.join(" "),
                show(g)
            )
        }
    }
}

#[test]
fn precedence_and_reach_as_smcdels_grammar() {
    // -> and iff: one level, left first; & and |: one level, left first.
    assert_eq!(sexp("1 -> 2 -> 3"), "(-> (-> 1 2) 3)");
    assert_eq!(sexp("1 iff 2 -> 3"), "(-> (iff 1 2) 3)");
    assert_eq!(sexp("1 | 2 & 3"), "(& (| 1 2) 3)");
    assert_eq!(sexp("1 & 2 -> 3 | 4"), "(-> (& 1 2) (| 3 4))");
    // ~, announcements and infix knowledge take the smallest formula.
    assert_eq!(sexp("~ 1 & 2"), "(& (~ 1) 2)");
    assert_eq!(sexp("a knows that 1 & 2"), "(& (K a 1) 2)");
    assert_eq!(sexp("[! 1] 2 & 3"), "(& ([] [] 1 2) 3)");
    assert_eq!(
        sexp("<?! 1 | 2> a, b comknow whether 3 -> 4"),
        "(-> (<>? [] (| 1 2) (Cw [a b] 3)) 4)"
    );
    assert_eq!(sexp("~ a knows whether (1 & 2)"), "(~ (Kw a (& 1 2)))");
    // K, Kw, Forall and Exists reach as far right as they can.
    assert_eq!(sexp("K a 1 & 2"), "(K a (& 1 2))");
    assert_eq!(sexp("1 & Kw b 2 -> 3"), "(& 1 (Kw b (-> 2 3)))");
    assert_eq!(sexp("Forall 1,2 1 | 2 -> Top"), "(A [1 2] (-> (| 1 2) T))");
    assert_eq!(sexp("ForAll 1 Exists 2 1 & 2"), "(A [1] (E [2] (& 1 2)))");
    // Lists, groups with and without parentheses, announcements to a group.
    assert_eq!(sexp("a knows whether (1, 2 & 3)"), "(Kw a 1 (& 2 3))");
    assert_eq!(sexp("(a, b) distknow that 1"), "(D [a b] 1)");
    assert_eq!(sexp("a distknow whether ~1"), "(Dw [a] (~ 1))");
    assert_eq!(
        sexp("[a, b ?! 1] < b ! 2 > Top"),
        "([]? [a b] 1 (<> [b] 2 T))"
    );
    assert_eq!(
        sexp("AND(1, OR(2), XOR(3, 4), ONEOF(1,2))"),
        "(& 1 (| 2) (xor 3 4) (oneof 1 2))"
    );
    // Spellings: Unicode, words, keywords before names of the same length.
    assert_eq!(
        sexp("¬1 ∧ Not 2 ∨ not 3 → Bot"),
        "(-> (| (& (~ 1) (~ 2)) (~ 3)) F)"
    );
    assert_eq!(sexp("(1) -- a comment\n & 2"), "(& 1 2)");
}

#[test]
fn keywords_and_names_split_as_alex_does() {
    let kinds = |src: &str| -> Vec<String> {
        lex(src)
            .unwrap()
            .iter()
            .map(|t| format!("{:?}", t.tok))
            .collect()
    };
    assert_eq!(
        kinds("Kw Kwa knows whether"),
        ["Kw", "Str(\"Kwa\")", "KnowsWhether", "Eof"]
    );
    assert_eq!(
        kinds("TRUE? TRUE notx -->x"),
        ["TrueQ", "Str(\"TRUE\")", "Str(\"notx\")", "Eof"]
    );
    assert_eq!(
        kinds("knows  that"),
        ["Str(\"knows\")", "Str(\"that\")", "Eof"]
    );
    let d = lex("VARS 1\nLAW 1 = 2").unwrap_err();
    assert_eq!(
        (d.message.as_str(), d.span.start),
        ("unexpected character `=`", 13)
    );
}

#[test]
fn syntax_errors_name_what_was_expected() {
    let error = |src: &str| {
        let tokens = lex(src).unwrap();
        parse(&tokens).unwrap_err().message
    };
    assert_eq!(
        error("VARS 1\nLAW Top\nOBS a 1"),
        "expected `:` after the agent, found the atom `1`"
    );
    assert_eq!(
        error("VARS 1\nLAW Top\nOBS a: 1\nVALID? a, b knows that 1"),
        "expected `comknow that`, `comknow whether`, `distknow that` or `distknow whether` after the agents, found `knows that`"
    );
    assert_eq!(
        error("VARS 1\nLAW Top\nOBS a: 1\nVALID? [a 1] 1"),
        "expected `!`, found the atom `1`"
    );
    assert_eq!(
        error("VARS 1\nLAW Top\nOBS a: 1\nVALID? <! 1] 1"),
        "expected `>` closing the announcement, found `]`"
    );
    assert_eq!(
        error("VARS 1\nLAW Top\nOBS a: 1\nTRUE? 1 1"),
        "expected `{` after `TRUE?`, found the atom `1`"
    );
    assert_eq!(
        error("VARS 1,\nLAW Top"),
        "an atom after `,`".replace(
            "an atom after `,`",
            "expected an atom after `,`, found `LAW`"
        )
    );
}

/// Forty muddy children, all muddy: the father's announcement, then 38 rounds of
/// "nobody knows whether they are muddy", then everyone knows. The story nests no
/// parentheses per announcement (epipen allows 64 nested ones).
#[test]
fn a_long_chain_of_announcements_answers() {
    let n = 40;
    let atoms: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let mut text = format!("VARS {}\nLAW Top\nOBS", atoms.join(","));
    for i in 1..=n {
        let others: Vec<&str> = (atoms.iter())
            .filter(|a| **a != i.to_string())
            .map(String::as_str)
            .collect();
        text += &format!(" c{i}: {}\n", others.join(","));
    }
    let nobody: Vec<String> = (1..=n)
        .map(|i| format!("~ c{i} knows whether {i}"))
        .collect();
    let nobody = format!("AND({})", nobody.join(", "));
    let rounds = format!("[! OR({})] ", atoms.join(",")) + &format!("[! {nobody}] ").repeat(n - 2);
    text += &format!(
        "VALID? {rounds} {nobody}\nVALID? {rounds} [! {nobody}] AND({})\n",
        atoms.join(",")
    );
    let answers = super::run("mc.smcdel.txt", &text, &crate::Options::default())
        .unwrap_or_else(|f| panic!("{}", crate::text::failure(&f)));
    let holds: Vec<_> = answers.jobs.iter().map(|j| j.answer.clone()).collect();
    use crate::views::SmcdelAnswer::Holds;
    assert_eq!(holds, [Holds(false), Holds(true)]);
}

/// An agent named as a keyword, a built-in function or a contextual word of epipen's
/// language is renamed (`K_`) in the story, which then compiles and answers.
#[test]
fn agents_named_as_epipens_words_are_renamed() {
    let text = "VARS 1\nLAW Top\nOBS where: 1\n    knows: 1\n    others: 1\n    alice: 1\n\
                VALID? where knows that 1 -> knows knows that 1 & others knows whether 1 & alice knows whether 1\n";
    let file = super::read("names.smcdel.txt", text)
        .unwrap_or_else(|f| panic!("{}", crate::text::failure(&f)));
    assert!(
        file.translation
            .story
            .contains("characters where_, knows_, others_, alice\n"),
        "{}",
        file.translation.story
    );
    let answers = file
        .answer(&crate::Options::default())
        .unwrap_or_else(|f| panic!("{}", crate::text::failure(&f)));
    assert_eq!(
        answers.jobs[0].answer,
        crate::views::SmcdelAnswer::Holds(true)
    );
}
