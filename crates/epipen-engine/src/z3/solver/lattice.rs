//! Integer equations over bound variables solved exactly, before quantifier elimination
//! (the omega test's equality step): `∀ȳ. E(ȳ) ∧ R(ȳ) → C(ȳ)`, E a conjunction of linear
//! equations `Σ aᵢ·yᵢ = t` (t over the free variables, with divisions of them), is
//! `guards → ∀z̄. R(ȳ(z̄)) → C(ȳ(z̄))`, where ȳ(z̄) parametrises E's integer solutions
//! (free variables z̄, some components determined as `t div g`) and the guards say E has
//! integer solutions at all (`t mod g = 0`). Unimodular column operations (Euclid's
//! algorithm on the coefficients) reduce each equation to a single variable. Then a
//! variable left only in bounds over free terms (`0 ≤ a − 1 − 32·q < 16`, q nowhere else)
//! is eliminated exactly: `∃q. L ≤ c·q ≤ U` is `⌈L/c⌉ ≤ ⌊U/c⌋`.
//!
//! Why: with divisions purified (`n' = 1001·q + r`, `n' = 1000·q' + r'`), Z3's `qe` and
//! `qe2` split on the residues of the combined modulus (1,001,000 classes); solved first,
//! the equations leave one parameter with a coefficient of 1,001,000 in an inequality,
//! which `qe2` eliminates at once.

use z3::ast::{Ast, Dynamic};
use z3::{AstKind, DeclKind, SortKind};

use super::term::Term;

/// `Σ coeffs[i]·vars[i] + free`.
#[derive(Clone)]
struct Linear {
    coeffs: Vec<i128>,
    free: Term,
}

impl Linear {
    fn constant(n: usize, free: Term) -> Linear {
        Linear {
            coeffs: vec![0; n],
            free,
        }
    }

    fn scaled(&self, k: i128) -> Option<Linear> {
        let mut coeffs = Vec::with_capacity(self.coeffs.len());
        for c in &self.coeffs {
            coeffs.push(c.checked_mul(k)?);
        }
        Some(Linear {
            coeffs,
            free: self.free.mul(&numeral(k)?),
        })
    }

    fn plus(&self, o: &Linear) -> Option<Linear> {
        let mut coeffs = Vec::with_capacity(self.coeffs.len());
        for (a, b) in self.coeffs.iter().zip(&o.coeffs) {
            coeffs.push(a.checked_add(*b)?);
        }
        Some(Linear {
            coeffs,
            free: self.free.add(&o.free),
        })
    }

    /// The form as a term over `vars`.
    fn term(&self, vars: &[Term]) -> Option<Term> {
        let mut sum = self.free.clone();
        for (c, v) in self.coeffs.iter().zip(vars) {
            match *c {
                0 => {}
                1 => sum = sum.add(v),
                _ => sum = sum.add(&numeral(*c)?.mul(v)),
            }
        }
        Some(sum)
    }
}

fn numeral(k: i128) -> Option<Term> {
    i64::try_from(k).ok().map(Term::int)
}

/// `t` as a linear form over `vars` (None when a variable occurs other than linearly).
fn linear(t: &Dynamic, vars: &[Term]) -> Option<Linear> {
    let n = vars.len();
    let mentions = |t: &Dynamic| Term(t.clone()).any_node(|x| vars.iter().any(|v| v.0 == *x));
    if !mentions(t) {
        return Some(Linear::constant(n, Term(t.clone())));
    }
    if let Some(k) = vars.iter().position(|v| v.0 == *t) {
        let mut l = Linear::constant(n, Term::int(0));
        l.coeffs[k] = 1;
        return Some(l);
    }
    if t.kind() != AstKind::App {
        return None;
    }
    let args = t.children();
    match t.decl().kind() {
        DeclKind::Add => {
            let mut sum = Linear::constant(n, Term::int(0));
            for a in &args {
                sum = sum.plus(&linear(a, vars)?)?;
            }
            Some(sum)
        }
        DeclKind::Sub => {
            let mut sum = linear(args.first()?, vars)?;
            for a in &args[1..] {
                sum = sum.plus(&linear(a, vars)?.scaled(-1)?)?;
            }
            Some(sum)
        }
        DeclKind::Uminus => linear(args.first()?, vars)?.scaled(-1),
        DeclKind::Mul => {
            let mut factor: i128 = 1;
            let mut inner = None;
            for a in &args {
                if mentions(a) {
                    if inner.is_some() {
                        return None;
                    }
                    inner = Some(linear(a, vars)?);
                } else {
                    factor = factor.checked_mul(a.as_int()?.as_i64()? as i128)?;
                }
            }
            inner?.scaled(factor)
        }
        _ => None,
    }
}

/// A linear int equation over `vars` as `lhs - rhs` (None if it is not one, or mentions
/// no variable).
fn equation(t: &Term, vars: &[Term]) -> Option<Linear> {
    let d = &t.0;
    if d.kind() != AstKind::App || d.decl().kind() != DeclKind::Eq {
        return None;
    }
    let args = d.children();
    if args.len() != 2 || args[0].sort_kind() != SortKind::Int {
        return None;
    }
    let l = linear(&args[0], vars)?.plus(&linear(&args[1], vars)?.scaled(-1)?)?;
    l.coeffs.iter().any(|c| *c != 0).then_some(l)
}

/// What solving the equations left: `guards → ∀vars. hyps → conclusion`.
pub(super) struct Solved {
    pub guards: Vec<Term>,
    pub vars: Vec<Term>,
    pub hyps: Vec<Term>,
    pub conclusion: Term,
}

/// Solves the linear equations among `hyps` (conjuncts) over `vars` exactly; None when
/// there is none, or a coefficient leaves 64 bits.
pub(super) fn solve_equalities(
    all_vars: &[Term],
    hyps: &[Term],
    conclusion: &Term,
) -> Option<Solved> {
    // Only the int variables take part; bool ones stay bound as they are.
    let (ints, bools): (Vec<Term>, Vec<Term>) = all_vars
        .iter()
        .cloned()
        .partition(|v| v.0.sort_kind() == SortKind::Int);
    let vars = &ints[..];
    let n = vars.len();
    let mut pending: Vec<Linear> = Vec::new();
    let mut rest: Vec<Term> = Vec::new();
    for h in hyps.iter().flat_map(|h| h.conjuncts()) {
        match equation(&h, vars) {
            Some(e) => pending.push(e),
            None => rest.push(h),
        }
    }
    if pending.is_empty() {
        return None;
    }
    // Each original variable as a form over the current ones (the same constants, which
    // the column operations give new meanings).
    let mut exprs: Vec<Linear> = (0..n)
        .map(|k| {
            let mut l = Linear::constant(n, Term::int(0));
            l.coeffs[k] = 1;
            l
        })
        .collect();
    let mut alive = vec![true; n];
    let mut guards = Vec::new();
    // y_j := y_j − m·y_k in every form: column k minus m times column j.
    fn column_op(forms: &mut [&mut Linear], j: usize, k: usize, m: i128) -> Option<()> {
        for f in forms.iter_mut() {
            f.coeffs[k] = f.coeffs[k].checked_sub(m.checked_mul(f.coeffs[j])?)?;
        }
        Some(())
    }
    while !pending.is_empty() {
        let mut eq = pending.remove(0);
        loop {
            let nonzero: Vec<usize> = (0..n).filter(|&k| eq.coeffs[k] != 0).collect();
            let Some(&j) = nonzero.iter().min_by_key(|&&k| eq.coeffs[k].unsigned_abs()) else {
                break;
            };
            if nonzero.len() == 1 {
                break;
            }
            for &k in &nonzero {
                if k == j {
                    continue;
                }
                let m = eq.coeffs[k] / eq.coeffs[j];
                let mut forms: Vec<&mut Linear> = std::iter::once(&mut eq)
                    .chain(pending.iter_mut())
                    .chain(exprs.iter_mut())
                    .collect();
                column_op(&mut forms, j, k, m)?;
            }
        }
        match (0..n).find(|&k| eq.coeffs[k] != 0) {
            None => guards.push(eq.free.simplify().eq(&Term::int(0)).simplify()),
            Some(j) => {
                // g·y_j + free = 0: y_j = −free / g, when g divides free.
                let g = eq.coeffs[j];
                let minus_free = eq.free.neg();
                let value = match g {
                    1 => minus_free,
                    -1 => eq.free.clone(),
                    _ => {
                        guards.push(
                            eq.free
                                .modulo(&numeral(g.abs())?)
                                .eq(&Term::int(0))
                                .simplify(),
                        );
                        minus_free.div(&numeral(g)?)
                    }
                };
                let value = value.simplify();
                for f in pending.iter_mut().chain(exprs.iter_mut()) {
                    let c = std::mem::take(&mut f.coeffs[j]);
                    if c != 0 {
                        f.free = f.free.add(&numeral(c)?.mul(&value));
                    }
                }
                alive[j] = false;
            }
        }
    }
    let to: Vec<Term> = exprs
        .iter()
        .map(|e| e.term(vars).map(|t| t.simplify()))
        .collect::<Option<_>>()?;
    let mut solved = Solved {
        guards,
        vars: (0..n)
            .filter(|&k| alive[k])
            .map(|k| vars[k].clone())
            .chain(bools)
            .collect(),
        hyps: rest.iter().map(|h| h.substitute(vars, &to)).collect(),
        conclusion: conclusion.substitute(vars, &to),
    };
    while let Some((k, (bounds, others))) =
        (0..solved.vars.len()).find_map(|k| bounds_only(&solved, k).map(|b| (k, b)))
    {
        let nonempty = interval_nonempty(&bounds)?;
        solved.hyps = others;
        if mentions(&solved.conclusion, &solved.vars[k]) {
            // The conclusion, equations each fixing the variable, holds for every value
            // in the interval when it is empty, or when it is one point where they hold:
            // given that it is not empty, when some lower bound's ⌈·⌉ equals some upper
            // bound's ⌊·⌋ (no point when it is open on one side).
            let mut points = Vec::new();
            for lo in bounds.iter().filter(|b| !b.upper) {
                for hi in bounds.iter().filter(|b| b.upper) {
                    let at = lo.ceil()?;
                    points.push(Term::and(&[
                        at.eq(&hi.floor()?),
                        solved
                            .conclusion
                            .substitute(std::slice::from_ref(&solved.vars[k]), &[at]),
                    ]));
                }
            }
            let at_the_point = Term::or(&points);
            solved.conclusion = Term::or(&[nonempty.not(), at_the_point]).simplify();
        } else {
            solved.hyps.push(nonempty);
        }
        solved.vars.remove(k);
    }
    Some(solved)
}

fn mentions(t: &Term, var: &Term) -> bool {
    t.any_node(|x| x == &var.0)
}

/// `f ≤ 0` for an int comparison (None for anything else).
fn at_most_zero(t: &Term, vars: &[Term]) -> Option<Linear> {
    let d = &t.0;
    if d.kind() != AstKind::App {
        return None;
    }
    let args = d.children();
    if args.len() != 2 || args[0].sort_kind() != SortKind::Int {
        return None;
    }
    let l = linear(&args[0], vars)?.plus(&linear(&args[1], vars)?.scaled(-1)?)?;
    let one = Linear::constant(vars.len(), Term::int(1));
    match d.decl().kind() {
        DeclKind::Le => Some(l),
        DeclKind::Lt => l.plus(&one),
        DeclKind::Ge => l.scaled(-1),
        DeclKind::Gt => l.scaled(-1)?.plus(&one),
        _ => None,
    }
}

/// `c·y ≤ t` (an upper bound, c > 0) or `c·y ≥ t` (a lower bound).
struct Bound {
    upper: bool,
    coeff: i128,
    t: Term,
}

/// When the variable `k` occurs in the hypotheses only in comparisons with no other
/// bound variable, and not in the conclusion: its bounds, and the other hypotheses.
fn bounds_only(solved: &Solved, k: usize) -> Option<(Vec<Bound>, Vec<Term>)> {
    let var = &solved.vars[k];
    if mentions(&solved.conclusion, var) {
        // Allowed when the conclusion is equations, each fixing `var` given the free
        // variables: then it holds on an interval of values only at a single point.
        for c in solved.conclusion.conjuncts() {
            let e = equation(&c, &solved.vars)?;
            if e.coeffs[k] == 0 || e.coeffs.iter().enumerate().any(|(j, c)| j != k && *c != 0) {
                return None;
            }
        }
    }
    let (mut bounds, mut others) = (Vec::new(), Vec::new());
    for h in &solved.hyps {
        if !mentions(h, var) {
            others.push(h.clone());
            continue;
        }
        let f = at_most_zero(h, &solved.vars)?;
        if f.coeffs.iter().enumerate().any(|(j, c)| j != k && *c != 0) {
            return None;
        }
        // c·y + t ≤ 0: c·y ≤ −t, or |c|·y ≥ t.
        let c = f.coeffs[k];
        bounds.push(if c > 0 {
            Bound {
                upper: true,
                coeff: c,
                t: f.free.neg(),
            }
        } else {
            Bound {
                upper: false,
                coeff: -c,
                t: f.free,
            }
        });
    }
    Some((bounds, others))
}

impl Bound {
    /// ⌈t/c⌉, the least y of a lower bound.
    fn ceil(&self) -> Option<Term> {
        Some(self.t.neg().div(&numeral(self.coeff)?).neg())
    }

    /// ⌊t/c⌋, the greatest y of an upper bound.
    fn floor(&self) -> Option<Term> {
        Some(self.t.div(&numeral(self.coeff)?))
    }
}

/// Whether some integer y satisfies all `bounds`: every lower bound's ⌈t/c⌉ at most
/// every upper bound's ⌊t/c⌋ (Euclidean `div` by a positive literal is ⌊·⌋); `true`
/// when the bounds are all on one side or none.
fn interval_nonempty(bounds: &[Bound]) -> Option<Term> {
    let mut pairs = Vec::new();
    for lo in bounds.iter().filter(|b| !b.upper) {
        for hi in bounds.iter().filter(|b| b.upper) {
            pairs.push(lo.ceil()?.le(&hi.floor()?));
        }
    }
    Some(Term::and(&pairs).simplify())
}
