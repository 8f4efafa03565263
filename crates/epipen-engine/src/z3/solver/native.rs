//! Terms compiled for fast evaluation in explicit worlds.

use std::collections::HashSet;

use z3::ast::{Ast, Dynamic};
use z3::{AstKind, DeclKind, Model, SortKind};

use crate::error::Failure;
use crate::ir::ArithOp;
use crate::ir::arith::{self, Integer};
use crate::worlds::Value;

use super::Term;
use super::term::b;

/// One node of a [`Compiled`] term; children are indices of earlier nodes.
#[derive(Debug, Clone)]
enum Node {
    Lit(i128),
    Var(usize),
    Not(usize),
    And(Vec<usize>),
    Or(Vec<usize>),
    Xor(usize, usize),
    Implies(usize, usize),
    Eq(usize, usize),
    Distinct(Vec<usize>),
    Ite(usize, usize, usize),
    Le(usize, usize),
    Lt(usize, usize),
    Add(Vec<usize>),
    Sub(Vec<usize>),
    Neg(usize),
    Mul(Vec<usize>),
    Div(usize, usize),
    Mod(usize, usize),
    Rem(usize, usize),
    Abs(usize),
    /// A disjunction of cubes over the same atoms: whether the atoms' values are one of
    /// the cubes' rows.
    InSet(Vec<usize>, HashSet<Vec<i128>>),
}

/// A quantifier-free term compiled for fast evaluation in explicit worlds: its DAG in
/// topological order, over the indices of the world variables. Terms with constructs it
/// does not know are evaluated by Z3's model evaluator instead.
pub struct Compiled {
    plan: Result<Vec<Node>, Term>,
    vars: Vec<Term>,
    is_bool: bool,
}

impl Term {
    /// Compiles the term for evaluation in worlds that give `vars` their values.
    pub fn compile(&self, vars: &[Term]) -> Compiled {
        Compiled {
            plan: compile_nodes(&self.0, vars).ok_or_else(|| self.clone()),
            vars: vars.to_vec(),
            is_bool: self.is_bool(),
        }
    }
}

fn compile_nodes(root: &Dynamic, vars: &[Term]) -> Option<Vec<Node>> {
    use std::collections::HashMap;
    let var_index: HashMap<&Dynamic, usize> =
        vars.iter().enumerate().map(|(k, v)| (&v.0, k)).collect();
    let mut index: HashMap<Dynamic, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut tables: HashMap<Dynamic, (Vec<Dynamic>, HashSet<Vec<i128>>)> = HashMap::new();
    // Iterative post-order: deep `ite` chains must not overflow the stack.
    let mut stack: Vec<(Dynamic, bool)> = vec![(root.clone(), false)];
    while let Some((t, expanded)) = stack.pop() {
        if index.contains_key(&t) {
            continue;
        }
        let children = match t.kind() {
            AstKind::Numeral => Vec::new(),
            AstKind::App => t.children(),
            _ => return None,
        };
        if !expanded {
            stack.push((t.clone(), true));
            // A disjunction of cubes over the same atoms needs only the atoms compiled.
            let children = match dnf_table(&t) {
                Some(table) => {
                    let atoms = table.0.clone();
                    tables.insert(t.clone(), table);
                    atoms
                }
                None => children,
            };
            stack.extend(
                children
                    .into_iter()
                    .filter(|c| !index.contains_key(c))
                    .map(|c| (c, false)),
            );
            continue;
        }
        if let Some((atoms, rows)) = tables.remove(&t) {
            let node = Node::InSet(atoms.iter().map(|a| index[a]).collect(), rows);
            index.insert(t, nodes.len());
            nodes.push(node);
            continue;
        }
        let args: Vec<usize> = children.iter().map(|c| index[c]).collect();
        let two = |f: fn(usize, usize) -> Node| (args.len() == 2).then(|| f(args[0], args[1]));
        let node = match t.kind() {
            AstKind::Numeral => Node::Lit(t.as_int()?.as_i64()? as i128),
            _ => match t.decl().kind() {
                DeclKind::True => Node::Lit(1),
                DeclKind::False => Node::Lit(0),
                DeclKind::Uninterpreted if args.is_empty() => Node::Var(*var_index.get(&t)?),
                DeclKind::Not => Node::Not(args[0]),
                DeclKind::And => Node::And(args),
                DeclKind::Or => Node::Or(args),
                DeclKind::Xor => two(Node::Xor)?,
                DeclKind::Implies => two(Node::Implies)?,
                DeclKind::Eq | DeclKind::Iff => two(Node::Eq)?,
                DeclKind::Distinct => Node::Distinct(args),
                DeclKind::Ite => Node::Ite(args[0], args[1], args[2]),
                DeclKind::Le => two(Node::Le)?,
                DeclKind::Lt => two(Node::Lt)?,
                DeclKind::Ge => two(|a, b| Node::Le(b, a))?,
                DeclKind::Gt => two(|a, b| Node::Lt(b, a))?,
                DeclKind::Add => Node::Add(args),
                DeclKind::Sub => Node::Sub(args),
                DeclKind::Uminus => Node::Neg(args[0]),
                DeclKind::Mul => Node::Mul(args),
                DeclKind::Idiv => two(Node::Div)?,
                DeclKind::Mod => two(Node::Mod)?,
                DeclKind::Rem => two(Node::Rem)?,
                DeclKind::Abs => Node::Abs(args[0]),
                _ => return None,
            },
        };
        index.insert(t, nodes.len());
        nodes.push(node);
    }
    Some(nodes)
}

/// For `or(cube, …)` with at least 4 cubes, each a conjunction of literals over one and
/// the same set of atoms (`p`, `not p`, `t = 7`): the atoms, and each cube's row of
/// values (bools as 0/1). None for anything else.
#[allow(clippy::type_complexity)]
fn dnf_table(t: &Dynamic) -> Option<(Vec<Dynamic>, HashSet<Vec<i128>>)> {
    if t.kind() != AstKind::App || t.decl().kind() != DeclKind::Or || t.num_children() < 4 {
        return None;
    }
    let is_bool_const = |x: &Dynamic| {
        x.kind() == AstKind::App
            && x.decl().kind() == DeclKind::Uninterpreted
            && x.num_children() == 0
    };
    let literal = |l: &Dynamic| -> Option<(Dynamic, i128)> {
        if l.sort_kind() == SortKind::Bool && is_bool_const(l) {
            return Some((l.clone(), 1));
        }
        if l.kind() != AstKind::App {
            return None;
        }
        let args = l.children();
        match l.decl().kind() {
            DeclKind::Not if is_bool_const(&args[0]) => Some((args[0].clone(), 0)),
            DeclKind::Eq if args.len() == 2 => {
                let num = |x: &Dynamic| {
                    (x.kind() == AstKind::Numeral)
                        .then(|| x.as_int()?.as_i64())
                        .flatten()
                };
                match (num(&args[0]), num(&args[1])) {
                    (None, Some(v)) => Some((args[0].clone(), v as i128)),
                    (Some(v), None) => Some((args[1].clone(), v as i128)),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    let mut atoms: Vec<Dynamic> = Vec::new();
    let mut position: std::collections::HashMap<Dynamic, usize> = std::collections::HashMap::new();
    let mut rows = HashSet::new();
    for (k, cube) in t.children().iter().enumerate() {
        let lits = if cube.kind() == AstKind::App && cube.decl().kind() == DeclKind::And {
            cube.children()
        } else {
            vec![cube.clone()]
        };
        let mut row: Vec<Option<i128>> = vec![None; atoms.len().max(lits.len())];
        for l in &lits {
            let (atom, value) = literal(l)?;
            let p = if k == 0 {
                *position.entry(atom.clone()).or_insert_with(|| {
                    atoms.push(atom);
                    atoms.len() - 1
                })
            } else {
                *position.get(&atom)?
            };
            if row[p].replace(value).is_some() {
                return None;
            }
        }
        if row.len() != atoms.len() || row.iter().any(|v| v.is_none()) {
            return None;
        }
        rows.insert(row.into_iter().map(|v| v.expect("checked above")).collect());
    }
    Some((atoms, rows))
}

impl Compiled {
    /// Whether evaluation runs natively (not through Z3's model evaluator).
    pub fn is_native(&self) -> bool {
        self.plan.is_ok()
    }

    /// The term's value in `world` (values of the variables, in order). Integers are
    /// mathematical: the world is evaluated on i128, and again exactly when an
    /// intermediate value leaves i128, never wrapped around.
    pub fn eval(&self, world: &[Value], scratch: &mut Vec<i128>) -> Result<Value, Failure> {
        let nodes = match &self.plan {
            Ok(nodes) => nodes,
            Err(term) => return Assignment::new(&self.vars, world).eval(term),
        };
        let top = exact(nodes, world, scratch);
        if self.is_bool {
            Ok(Value::Bool(top != Integer::from(0i128)))
        } else {
            top.to_i64().map(Value::Int).ok_or_else(|| {
                Failure::Unsupported(format!(
                    "a value in a world is {top}, beyond the 64-bit integers (-2^63 to 2^63 - 1) worlds hold"
                ))
            })
        }
    }
}

impl Compiled {
    /// The term's exact value in `world`, however large (bools as 0 and 1): what a
    /// character observes of a learned expression, which a world need not hold.
    pub fn eval_exact(&self, world: &[Value], scratch: &mut Vec<i128>) -> Result<Integer, Failure> {
        match &self.plan {
            Ok(nodes) => Ok(exact(nodes, world, scratch)),
            Err(term) => Assignment::new(&self.vars, world).eval_exact(term),
        }
    }
}

/// The value of the compiled term's nodes in `world`: on i128, or exactly when a value
/// leaves i128.
fn exact(nodes: &[Node], world: &[Value], scratch: &mut Vec<i128>) -> Integer {
    match run(nodes, world, scratch) {
        Some(top) => Integer::from(top),
        None => run::<Integer>(nodes, world, &mut Vec::new())
            .expect("exact arithmetic does not overflow"),
    }
}

/// The numbers [`run`] computes with: i128, which says when a result does not fit, or
/// exact integers.
trait Number: Clone + Ord + From<i128> {
    /// `self op other` (None: it does not fit).
    fn arith(&self, op: ArithOp, other: &Self) -> Option<Self>;
    /// `-self` (None: it does not fit).
    fn neg(&self) -> Option<Self>;
    /// The value as an i128, when it is one.
    fn small(&self) -> Option<i128>;
}

impl Number for i128 {
    fn arith(&self, op: ArithOp, other: &i128) -> Option<i128> {
        arith::checked(op, *self, *other)
    }

    fn neg(&self) -> Option<i128> {
        self.checked_neg()
    }

    fn small(&self) -> Option<i128> {
        Some(*self)
    }
}

impl Number for Integer {
    fn arith(&self, op: ArithOp, other: &Integer) -> Option<Integer> {
        Some(Integer::arith(self, op, other))
    }

    fn neg(&self) -> Option<Integer> {
        Some(Integer::neg(self))
    }

    fn small(&self) -> Option<i128> {
        match self {
            Integer::Small(v) => Some(*v),
            Integer::Big(_) => None,
        }
    }
}

/// The value of the compiled term's nodes in `world` (bools as 0 and 1): the last
/// node's, or None when a value does not fit in `N`.
fn run<N: Number>(nodes: &[Node], world: &[Value], scratch: &mut Vec<N>) -> Option<N> {
    scratch.clear();
    let (zero, one) = (N::from(0), N::from(1));
    let b = |x: bool| if x { one.clone() } else { zero.clone() };
    let fold = |start: N, op: ArithOp, xs: &[usize], scratch: &[N]| {
        xs.iter()
            .try_fold(start, |acc, x| acc.arith(op, &scratch[*x]))
    };
    for node in nodes {
        let v = |i: &usize| &scratch[*i];
        let truth = |i: &usize| scratch[*i] != zero;
        let value = match node {
            Node::Lit(n) => N::from(*n),
            Node::Var(k) => match world[*k] {
                Value::Int(n) => N::from(n.into()),
                Value::Bool(x) => b(x),
            },
            Node::Not(a) => b(!truth(a)),
            Node::And(xs) => b(xs.iter().all(truth)),
            Node::Or(xs) => b(xs.iter().any(truth)),
            Node::Xor(x, y) => b(truth(x) != truth(y)),
            Node::Implies(x, y) => b(!truth(x) || truth(y)),
            Node::Eq(x, y) => b(v(x) == v(y)),
            Node::Distinct(xs) => b(xs
                .iter()
                .enumerate()
                .all(|(i, a)| xs[i + 1..].iter().all(|c| v(a) != v(c)))),
            Node::Ite(c, x, y) => {
                if truth(c) {
                    v(x).clone()
                } else {
                    v(y).clone()
                }
            }
            Node::Le(x, y) => b(v(x) <= v(y)),
            Node::Lt(x, y) => b(v(x) < v(y)),
            Node::Add(xs) => fold(zero.clone(), ArithOp::Add, xs, scratch)?,
            Node::Sub(xs) => fold(v(&xs[0]).clone(), ArithOp::Sub, &xs[1..], scratch)?,
            Node::Neg(x) => v(x).neg()?,
            Node::Mul(xs) => fold(one.clone(), ArithOp::Mul, xs, scratch)?,
            // Z3 leaves division by zero unspecified; the engine guards every division
            // with `ite`, so the value of an unguarded zero division never matters.
            Node::Div(x, y) => v(x).arith(ArithOp::Div, v(y))?,
            Node::Mod(x, y) => v(x).arith(ArithOp::Mod, v(y))?,
            Node::Rem(x, y) => {
                // SMT-LIB rem: sign follows the divisor.
                let m = v(x).arith(ArithOp::Mod, v(y))?;
                if *v(y) < zero { m.neg()? } else { m }
            }
            Node::Abs(x) => {
                if *v(x) < zero {
                    v(x).neg()?
                } else {
                    v(x).clone()
                }
            }
            // The rows are literals: an atom beyond i128 matches none of them.
            Node::InSet(atoms, rows) => b(atoms
                .iter()
                .map(|a| v(a).small())
                .collect::<Option<Vec<i128>>>()
                .is_some_and(|row| rows.contains(&row))),
        };
        scratch.push(value);
    }
    scratch.last().cloned()
}

/// A world as an assignment to the world variables, for evaluating ground terms.
struct Assignment {
    model: Model,
}

impl Assignment {
    fn new(vars: &[Term], values: &[Value]) -> Assignment {
        let model = Model::new();
        for (var, value) in vars.iter().zip(values) {
            let decl = var.0.decl();
            model.add_const_interp(&decl, &Term::value(*value).0);
        }
        Assignment { model }
    }

    /// The exact value of `term` in this world (bools as 0 and 1).
    fn eval_exact(&self, term: &Term) -> Result<Integer, Failure> {
        let t = self.model.eval(&term.0, true).ok_or_else(|| {
            Failure::Unsupported("Z3 could not evaluate a term in a world".into())
        })?;
        let t = Term(t);
        if t.is_bool() {
            return match b(&t).as_bool() {
                Some(v) => Ok(Integer::from(i64::from(v))),
                None => Err(Failure::Unsupported(format!(
                    "Z3 left a term unevaluated in a world: {term}"
                ))),
            };
        }
        // A numeral prints as `123` or `(- 123)`.
        let text = t.to_string();
        let digits = text.trim_start_matches("(- ").trim_end_matches(')');
        match digits.parse::<num_bigint::BigInt>() {
            Ok(n) if text.starts_with("(- ") => Ok(Integer::from(-n)),
            Ok(n) => Ok(Integer::from(n)),
            Err(_) => Err(Failure::Unsupported(format!(
                "Z3 left a term unevaluated in a world: {term}"
            ))),
        }
    }

    /// The value of `term` in this world (unassigned variables default to 0/false).
    fn eval(&self, term: &Term) -> Result<Value, Failure> {
        let t = self.model.eval(&term.0, true).ok_or_else(|| {
            Failure::Unsupported("Z3 could not evaluate a term in a world".into())
        })?;
        Term(t).as_value().ok_or_else(|| {
            Failure::Unsupported(format!("Z3 left a term unevaluated in a world: {term}"))
        })
    }
}
