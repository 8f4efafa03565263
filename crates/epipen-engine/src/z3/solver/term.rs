//! Terms: Z3 ASTs owned by the engine, with the constructors the encodings use.

use std::collections::HashSet;

use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::{AstKind, DeclKind, SortKind};

use crate::ir::arith::Integer;
use crate::worlds::Value;

/// An int or bool term.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Term(pub(super) Dynamic);

impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

pub(super) fn b(t: &Term) -> Bool {
    t.0.as_bool()
        .expect("engine builds well-sorted terms: expected bool")
}

pub(super) fn i(t: &Term) -> Int {
    t.0.as_int()
        .expect("engine builds well-sorted terms: expected int")
}

pub(super) fn wrap(a: impl Ast) -> Term {
    Term(Dynamic::from_ast(&a))
}

impl Term {
    pub fn int_var(name: &str) -> Term {
        wrap(Int::new_const(name))
    }

    pub fn bool_var(name: &str) -> Term {
        wrap(Bool::new_const(name))
    }

    /// A fresh constant of the same sort, for a bound copy of a world variable.
    pub fn fresh_like(&self, prefix: &str) -> Term {
        Term(Dynamic::fresh_const(prefix, &self.0.get_sort()))
    }

    pub fn int(n: i64) -> Term {
        wrap(Int::from_i64(n))
    }

    pub fn bool(v: bool) -> Term {
        wrap(Bool::from_bool(v))
    }

    /// An integer literal of any size.
    pub fn integer(n: &Integer) -> Term {
        match n.to_i64() {
            Some(v) => Term::int(v),
            None => wrap(n.to_string().parse::<Int>().expect("a decimal numeral")),
        }
    }

    pub fn value(v: Value) -> Term {
        match v {
            Value::Int(n) => Term::int(n),
            Value::Bool(v) => Term::bool(v),
        }
    }

    pub fn is_bool(&self) -> bool {
        self.0.sort_kind() == SortKind::Bool
    }

    /// The literal value of a ground term, if it is one.
    pub fn as_value(&self) -> Option<Value> {
        if self.is_bool() {
            b(self).as_bool().map(Value::Bool)
        } else {
            i(self).as_i64().map(Value::Int)
        }
    }

    pub fn add(&self, o: &Term) -> Term {
        wrap(Int::add(&[i(self), i(o)]))
    }

    pub fn sub(&self, o: &Term) -> Term {
        wrap(Int::sub(&[i(self), i(o)]))
    }

    pub fn mul(&self, o: &Term) -> Term {
        wrap(Int::mul(&[i(self), i(o)]))
    }

    pub(super) fn nonzero_literal(&self) -> bool {
        i(self).as_i64().is_some_and(|n| n != 0)
    }

    /// SMT-LIB integer division, with `x / 0` defined as 0.
    pub fn div(&self, o: &Term) -> Term {
        let q = i(self).div(i(o));
        if o.nonzero_literal() {
            wrap(q)
        } else {
            wrap(i(o).eq(Int::from_i64(0)).ite(&Int::from_i64(0), &q))
        }
    }

    /// SMT-LIB modulo, with `x % 0` defined as x.
    pub fn modulo(&self, o: &Term) -> Term {
        let r = i(self).modulo(i(o));
        if o.nonzero_literal() {
            wrap(r)
        } else {
            wrap(i(o).eq(Int::from_i64(0)).ite(&i(self), &r))
        }
    }

    pub fn neg(&self) -> Term {
        wrap(i(self).unary_minus())
    }

    pub fn eq(&self, o: &Term) -> Term {
        wrap(self.0.eq(&o.0))
    }

    pub fn lt(&self, o: &Term) -> Term {
        wrap(i(self).lt(i(o)))
    }

    pub fn le(&self, o: &Term) -> Term {
        wrap(i(self).le(i(o)))
    }

    pub fn not(&self) -> Term {
        wrap(b(self).not())
    }

    pub fn and(terms: &[Term]) -> Term {
        match terms {
            [] => Term::bool(true),
            [t] => t.clone(),
            _ => wrap(Bool::and(&terms.iter().map(b).collect::<Vec<_>>())),
        }
    }

    pub fn or(terms: &[Term]) -> Term {
        match terms {
            [] => Term::bool(false),
            [t] => t.clone(),
            _ => wrap(Bool::or(&terms.iter().map(b).collect::<Vec<_>>())),
        }
    }

    pub fn implies(&self, o: &Term) -> Term {
        wrap(b(self).implies(b(o)))
    }

    pub fn iff(&self, o: &Term) -> Term {
        wrap(b(self).iff(b(o)))
    }

    pub fn ite(&self, then: &Term, otherwise: &Term) -> Term {
        Term(b(self).ite(&then.0, &otherwise.0))
    }

    /// ∀ vars. body, with every `t div k` and `t mod k` (k a non-zero literal, t mentioning
    /// a bound variable) replaced by fresh bound q and r under `t = k·q + r ∧ 0 ≤ r < |k|`. That is
    /// equivalent (q and r are determined by t) and keeps div and mod away from Z3's `qe`
    /// tactic, which answers wrongly on some of them in Z3 5.4 (see docs/encoding.md).
    pub fn forall(vars: &[Term], body: &Term) -> Term {
        if vars.is_empty() {
            return body.clone();
        }
        let (body, divisions) = body.purify_divisions(vars);
        let mut bound: Vec<&dyn Ast> = vars.iter().map(|v| &v.0 as &dyn Ast).collect();
        let mut definitions = Vec::new();
        for d in &divisions {
            bound.push(&d.quotient.0);
            bound.push(&d.remainder.0);
            definitions.push(d.definition());
        }
        let body = Term::and(&definitions).implies(&body);
        wrap(z3::ast::forall_const(&bound, &[], &b(&body)))
    }

    /// The term with each division of a term over `bound` by a non-zero literal replaced
    /// by fresh variables, and the divisions so replaced (inner ones first). Divisions of
    /// terms over free variables stay: they are opaque terms to quantifier elimination.
    pub(super) fn purify_divisions(&self, bound: &[Term]) -> (Term, Vec<Division>) {
        use std::collections::HashMap;
        let mut found: HashMap<(Dynamic, i64), usize> = HashMap::new();
        let mut divisions: Vec<Division> = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(self.0.clone(), false)];
        // Post-order, so that an inner division is numbered before one containing it.
        while let Some((t, expanded)) = stack.pop() {
            if !expanded {
                if !seen.insert(t.clone()) || t.kind() != AstKind::App {
                    continue;
                }
                stack.push((t.clone(), true));
                stack.extend(t.children().into_iter().map(|c| (c, false)));
                continue;
            }
            if !matches!(t.decl().kind(), DeclKind::Idiv | DeclKind::Mod) {
                continue;
            }
            let args = t.children();
            let Some(k) = args
                .get(1)
                .and_then(|a| a.as_int())
                .and_then(|a| a.as_i64())
                .filter(|k| *k != 0)
            else {
                continue;
            };
            if !Term(args[0].clone()).any_node(|n| bound.iter().any(|v| v.0 == *n)) {
                continue;
            }
            found.entry((args[0].clone(), k)).or_insert_with(|| {
                divisions.push(Division {
                    dividend: Term(args[0].clone()),
                    divisor: k,
                    quotient: wrap(Int::fresh_const("q")),
                    remainder: wrap(Int::fresh_const("r")),
                });
                divisions.len() - 1
            });
        }
        if divisions.is_empty() {
            return (self.clone(), divisions);
        }
        // Replace every `t div k` / `t mod k` by q / r, in the body and in the dividends.
        let mut from = Vec::new();
        let mut to = Vec::new();
        for d in &divisions {
            from.push(wrap(i(&d.dividend).div(Int::from_i64(d.divisor))));
            to.push(d.quotient.clone());
            from.push(wrap(i(&d.dividend).modulo(Int::from_i64(d.divisor))));
            to.push(d.remainder.clone());
        }
        for d in &mut divisions {
            d.dividend = d.dividend.substitute(&from, &to);
        }
        (self.substitute(&from, &to), divisions)
    }

    /// Replaces each `from[k]` by `to[k]`.
    pub fn substitute(&self, from: &[Term], to: &[Term]) -> Term {
        let pairs: Vec<(&Dynamic, &Dynamic)> =
            from.iter().zip(to).map(|(f, t)| (&f.0, &t.0)).collect();
        Term(self.0.substitute(&pairs))
    }

    /// The conjuncts of a conjunction (nested ones flattened); else the term itself.
    pub(super) fn conjuncts(&self) -> Vec<Term> {
        self.flatten(DeclKind::And)
    }

    /// The disjuncts of a disjunction (nested ones flattened); else the term itself.
    pub(super) fn disjuncts(&self) -> Vec<Term> {
        self.flatten(DeclKind::Or)
    }

    pub(super) fn flatten(&self, kind: DeclKind) -> Vec<Term> {
        let mut out = Vec::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if t.kind() == AstKind::App && t.decl().kind() == kind {
                stack.extend(t.children().into_iter().rev());
            } else {
                out.push(Term(t));
            }
        }
        out
    }

    /// The lists of assignments among the conjuncts of this formula (κ): each conjunct
    /// that is a disjunction of conjunctions of equations `v = n` (a bool `v` or `not
    /// v`) over the same variables of `vars`, or one equation `v = n`, as the indices of
    /// those variables in `vars` (ascending) and each disjunct's values. The formula
    /// implies that the variables take one of the listed assignments.
    pub fn case_lists(&self, vars: &[Term]) -> Vec<(Vec<usize>, Vec<Vec<Value>>)> {
        let cube = |t: &Term| -> Option<Vec<(usize, Value)>> {
            let mut pairs = Vec::new();
            for c in t.conjuncts() {
                let var = |d: &Dynamic| vars.iter().position(|v| v.0 == *d);
                let kind = (c.0.kind() == AstKind::App).then(|| c.0.decl().kind());
                let children = c.0.children();
                let pair = match kind {
                    Some(DeclKind::Eq) if children.len() == 2 => {
                        let (l, r) = (&children[0], &children[1]);
                        match (var(l), var(r)) {
                            (Some(k), None) => Some((k, Term(r.clone()).as_value()?)),
                            (None, Some(k)) => Some((k, Term(l.clone()).as_value()?)),
                            _ => None,
                        }
                    }
                    Some(DeclKind::Not) if children.len() == 1 => {
                        var(&children[0]).map(|k| (k, Value::Bool(false)))
                    }
                    _ => var(&c.0).map(|k| (k, Value::Bool(true))),
                }?;
                if pairs.iter().any(|(k, _)| *k == pair.0) {
                    return None;
                }
                pairs.push(pair);
            }
            pairs.sort_by_key(|(k, _)| *k);
            Some(pairs)
        };
        let mut lists = Vec::new();
        for conjunct in self.conjuncts() {
            let mut indices: Option<Vec<usize>> = None;
            let mut rows = Vec::new();
            let whole = conjunct.disjuncts().iter().all(|d| {
                let Some(pairs) = cube(d) else {
                    return false;
                };
                let keys: Vec<usize> = pairs.iter().map(|(k, _)| *k).collect();
                if indices.get_or_insert_with(|| keys.clone()) != &keys {
                    return false;
                }
                rows.push(pairs.into_iter().map(|(_, v)| v).collect());
                true
            });
            if let Some(indices) = indices
                && whole
                && !indices.is_empty()
            {
                lists.push((indices, rows));
            }
        }
        lists
    }

    /// Whether the term is an equation between ints.
    pub(super) fn is_int_equation(&self) -> bool {
        self.0.kind() == AstKind::App
            && self.0.decl().kind() == DeclKind::Eq
            && self
                .0
                .children()
                .first()
                .is_some_and(|c| c.sort_kind() == SortKind::Int)
    }

    /// Z3's bottom-up simplifier.
    pub fn simplify(&self) -> Term {
        Term(self.0.simplify())
    }

    /// Number of distinct nodes in the term's DAG.
    pub fn dag_size(&self) -> usize {
        let mut seen = HashSet::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if seen.insert(t.clone()) {
                stack.extend(t.children());
            }
        }
        seen.len()
    }

    /// Whether any quantifier is left in the term.
    pub fn has_quantifier(&self) -> bool {
        self.any_node(|t| t.kind() == AstKind::Quantifier)
    }

    /// Whether the term divides or takes the modulus by a non-zero literal (outside
    /// quantifiers).
    pub fn has_division(&self) -> bool {
        self.any_node(|t| {
            t.kind() == AstKind::App
                && matches!(t.decl().kind(), DeclKind::Idiv | DeclKind::Mod)
                && Term(t.clone()).is_int_application_by_literal()
        })
    }

    fn is_int_application_by_literal(&self) -> bool {
        self.0
            .children()
            .get(1)
            .is_some_and(|k| k.kind() == AstKind::Numeral)
    }

    /// The first subterm that puts the term outside linear integer arithmetic (see
    /// [`Term::is_nonlinear`]), e.g. `x * y`.
    pub fn nonlinear_part(&self) -> Option<Term> {
        let mut found = None;
        self.any_node(|t| {
            let hit = Term(t.clone()).is_nonlinear_node();
            if hit {
                found = Some(Term(t.clone()));
            }
            hit
        });
        found
    }

    /// Whether the term mentions one of `vars` (a quantifier counts as mentioning them:
    /// its body is not looked into).
    pub fn any_var(&self, vars: &[Term]) -> bool {
        self.any_node(|n| n.kind() == AstKind::Quantifier || vars.iter().any(|v| v.0 == *n))
    }

    /// Every division or modulus by a literal whose dividend mentions one of `vars`,
    /// each once, in order of first appearance (outside quantifiers).
    pub fn divisions_over(&self, vars: &[Term]) -> Vec<Term> {
        let mut out: Vec<Term> = Vec::new();
        self.any_node(|t| {
            if t.kind() == AstKind::App
                && matches!(t.decl().kind(), DeclKind::Idiv | DeclKind::Mod)
                && Term(t.clone()).is_int_application_by_literal()
                && Term(t.children()[0].clone()).any_node(|n| vars.iter().any(|v| v.0 == *n))
                && !out.iter().any(|o| o.0 == *t)
            {
                out.push(Term(t.clone()));
            }
            false
        });
        out
    }

    /// The term written as a story writes it (`n % 11`, `x * y + 1`), bound copies of a
    /// constant (`n'!3`) under the constant's name; Z3's text for anything else.
    pub fn story_text(&self) -> String {
        let t = &self.0;
        match t.kind() {
            AstKind::Numeral => i(self)
                .as_i64()
                .map_or_else(|| t.to_string(), |n| n.to_string()),
            AstKind::App if t.children().is_empty() => {
                let name = t.decl().name();
                name.split('\'').next().unwrap_or(&name).to_string()
            }
            AstKind::App => {
                let args: Vec<Term> = t.children().into_iter().map(Term).collect();
                let operand = |a: &Term| {
                    let text = a.story_text();
                    if a.0.kind() == AstKind::App && !a.0.children().is_empty() {
                        format!("({text})")
                    } else {
                        text
                    }
                };
                let infix = |op: &str| {
                    args.iter()
                        .map(operand)
                        .collect::<Vec<_>>()
                        .join(&format!(" {op} "))
                };
                match t.decl().kind() {
                    DeclKind::Add => infix("+"),
                    DeclKind::Sub => infix("-"),
                    DeclKind::Mul => infix("*"),
                    DeclKind::Idiv => infix("/"),
                    DeclKind::Mod => infix("%"),
                    DeclKind::Uminus if args.len() == 1 => format!("-{}", operand(&args[0])),
                    _ => t.to_string(),
                }
            }
            _ => t.to_string(),
        }
    }

    /// Whether the term multiplies, divides or takes the modulus of two non-literals,
    /// which puts it outside linear integer arithmetic (where `qe` is complete).
    pub fn is_nonlinear(&self) -> bool {
        self.any_node(|t| Term(t.clone()).is_nonlinear_node())
    }

    fn is_nonlinear_node(&self) -> bool {
        let t = &self.0;
        {
            if t.kind() != AstKind::App {
                return false;
            }
            let kind = t.decl().kind();
            let args = t.children();
            let literal = |a: &Dynamic| a.kind() == AstKind::Numeral;
            match kind {
                DeclKind::Mul => args.iter().filter(|a| !literal(a)).count() > 1,
                DeclKind::Idiv | DeclKind::Mod | DeclKind::Rem | DeclKind::Div => {
                    args.len() == 2 && !literal(&args[1])
                }
                DeclKind::Power => true,
                _ => false,
            }
        }
    }

    /// The term's atoms: its maximal boolean subterms that are not boolean connectives
    /// (comparisons, and boolean constants), each once, in order of first appearance.
    pub fn atoms(&self) -> Vec<Term> {
        let mut seen = HashSet::new();
        let mut atoms = Vec::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.clone()) || t.sort_kind() != SortKind::Bool {
                continue;
            }
            let connective = t.kind() == AstKind::App
                && match t.decl().kind() {
                    DeclKind::And
                    | DeclKind::Or
                    | DeclKind::Not
                    | DeclKind::Implies
                    | DeclKind::Iff
                    | DeclKind::Xor => true,
                    DeclKind::Ite => true,
                    DeclKind::Eq | DeclKind::Distinct => t
                        .children()
                        .first()
                        .is_some_and(|c| c.sort_kind() == SortKind::Bool),
                    _ => false,
                };
            match t.kind() {
                AstKind::App if connective => {
                    let children = t.children();
                    // The condition of a boolean `ite` is a formula too; keep the order stable.
                    stack.extend(children.into_iter().rev());
                }
                AstKind::App if !matches!(t.decl().kind(), DeclKind::True | DeclKind::False) => {
                    atoms.push(Term(t))
                }
                _ => {}
            }
        }
        atoms
    }

    pub(super) fn any_node(&self, mut pred: impl FnMut(&Dynamic) -> bool) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if pred(&t) {
                return true;
            }
            if seen.insert(t.clone()) {
                if t.kind() == AstKind::Quantifier {
                    continue;
                }
                stack.extend(t.children());
            }
        }
        false
    }
}

/// The int numerals of a term in a fixed order (depth first, children left to right),
/// and whether two terms have the same shape: the same operators and constants, with
/// numerals anywhere. For common knowledge's iterates over infinitely many worlds (see
/// `Term::shifted`).
impl Term {
    /// The term's int numerals, depth first (a shared subterm at each of its places).
    pub fn numerals(&self) -> Vec<i64> {
        let mut out = Vec::new();
        fn walk(t: &Dynamic, out: &mut Vec<i64>) -> Option<()> {
            match t.kind() {
                AstKind::Numeral if t.sort_kind() == SortKind::Int => {
                    out.push(t.as_int()?.as_i64()?);
                }
                AstKind::App => {
                    for c in t.children() {
                        walk(&c, out)?;
                    }
                }
                AstKind::Numeral => {}
                _ => return None,
            }
            Some(())
        }
        match walk(&self.0, &mut out) {
            Some(()) => out,
            None => Vec::new(),
        }
    }

    /// Whether `self` and `o` are the same term up to their int numerals.
    pub fn same_shape(&self, o: &Term) -> bool {
        fn same(a: &Dynamic, b: &Dynamic) -> bool {
            match (a.kind(), b.kind()) {
                (AstKind::Numeral, AstKind::Numeral) => a.sort_kind() == b.sort_kind(),
                (AstKind::App, AstKind::App) => {
                    let (ca, cb) = (a.children(), b.children());
                    a.decl().kind() == b.decl().kind()
                        && a.decl().name() == b.decl().name()
                        && ca.len() == cb.len()
                        && ca.iter().zip(&cb).all(|(x, y)| same(x, y))
                }
                _ => false,
            }
        }
        same(&self.0, &o.0)
    }

    /// The term with its k-th int numeral (in the order of [`Term::numerals`]) replaced
    /// by `numerals[k] + steps[k] · t`.
    pub fn shifted(&self, steps: &[i64], t: &Term) -> Option<Term> {
        fn rebuild(a: &Dynamic, steps: &[i64], t: &Term, k: &mut usize) -> Option<Dynamic> {
            match a.kind() {
                AstKind::Numeral if a.sort_kind() == SortKind::Int => {
                    let step = *steps.get(*k)?;
                    *k += 1;
                    Some(if step == 0 {
                        a.clone()
                    } else {
                        Term(a.clone()).add(&Term::int(step).mul(t)).0
                    })
                }
                AstKind::App if !a.children().is_empty() => {
                    let children = a
                        .children()
                        .iter()
                        .map(|c| rebuild(c, steps, t, k))
                        .collect::<Option<Vec<_>>>()?;
                    let args: Vec<&dyn Ast> = children.iter().map(|c| c as &dyn Ast).collect();
                    Some(a.decl().apply(&args))
                }
                _ => Some(a.clone()),
            }
        }
        let mut k = 0;
        let out = rebuild(&self.0, steps, t, &mut k)?;
        (k == steps.len()).then_some(Term(out))
    }
}

/// `dividend = divisor · quotient + remainder`, with `0 ≤ remainder < |divisor|`.
pub(super) struct Division {
    dividend: Term,
    divisor: i64,
    pub(super) quotient: Term,
    pub(super) remainder: Term,
}

impl Division {
    pub(super) fn definition(&self) -> Term {
        let k = Term::int(self.divisor);
        Term::and(&[
            self.dividend
                .eq(&k.mul(&self.quotient).add(&self.remainder)),
            Term::int(0).le(&self.remainder),
            self.remainder.lt(&Term::int(
                self.divisor.unsigned_abs().min(i64::MAX as u64) as i64
            )),
        ])
    }
}
