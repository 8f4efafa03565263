//! `do` and `plan` on hand-built programs: actions, their events and the plan's steps
//! made as lowering makes them (see `epipen_ir::ActionDef` and `PlanSteps`).

use epipen_ir::{
    ActionDef, ActionId, Case, CharId, Character, ConstId, Constant, DoStep, EnumDef, EnumId,
    EventDef, EventId, EventStmt, Expr, ExprKind, LogicOp, Occurrence, PlanSteps, PlanStmt,
    Program, Span, Stmt, StmtKind, Ty, Value, World,
};

use crate::{Domain, Error, ErrorKind, Report, Trace, trace};

fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        ty: Ty::Bool,
        span: Span::default(),
    }
}
fn b(i: usize) -> Expr {
    ex(ExprKind::Const(ConstId(i)))
}
fn not(a: Expr) -> Expr {
    ex(ExprKind::Not(Box::new(a)))
}
fn and(a: Expr, c: Expr) -> Expr {
    ex(ExprKind::Logic(LogicOp::And, Box::new(a), Box::new(c)))
}
fn knows(agent: usize, f: Expr) -> Expr {
    ex(ExprKind::Knows {
        agent: CharId(agent),
        formula: Box::new(f),
    })
}
/// `knows(agent, p) or knows(agent, not p)`.
fn knows_whether(agent: usize, p: Expr) -> Expr {
    ex(ExprKind::Logic(
        LogicOp::Or,
        Box::new(knows(agent, p.clone())),
        Box::new(knows(agent, not(p))),
    ))
}
fn st(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
        loops: Vec::new(),
    }
}
fn at(kind: StmtKind, start: usize) -> Stmt {
    Stmt {
        kind,
        span: Span::new(start, start + 1),
        loops: Vec::new(),
    }
}
fn case(name: &str, pre: Option<Expr>, changes: Vec<(usize, bool)>) -> Case {
    Case {
        name: name.to_string(),
        pre,
        changes: (changes.into_iter())
            .map(|(c, v)| (ConstId(c), ex(ExprKind::Bool(v))))
            .collect(),
        weight: None,
        span: Span::default(),
    }
}
fn plan(actions: usize, goal: Expr, max: usize) -> PlanStmt {
    PlanStmt {
        actions: (0..actions).map(ActionId).collect(),
        goal,
        max,
        keeping: None,
        coordinated: false,
        all: false,
    }
}

/// A story of bool constants (`ConstId(0)`, … in the order given) and actions, made as
/// lowering makes them: each action an event of its own, and `do` steps and the plan's
/// steps occurrence constants after the story's.
struct Story {
    p: Program,
}

impl Story {
    fn new(chars: &[&str], consts: &[&str]) -> Story {
        let default = Span::default();
        Story {
            p: Program {
                characters: (chars.iter())
                    .map(|n| Character {
                        name: n.to_string(),
                        span: default,
                    })
                    .collect(),
                constants: (consts.iter())
                    .map(|n| Constant {
                        name: n.to_string(),
                        ty: Ty::Bool,
                        span: default,
                        occurrence: None,
                    })
                    .collect(),
                checkpoints: Vec::new(),
                enums: Vec::new(),
                events: Vec::new(),
                actions: Vec::new(),
                plan_steps: None,
                statements: Vec::new(),
                samples: Vec::new(),
                backend: None,
            },
        }
    }

    fn event(&mut self, name: &str, cases: Vec<String>) -> EventId {
        let id = EventId(self.p.events.len());
        let sort = EnumId(self.p.enums.len());
        let mut variants = cases.clone();
        variants.push(format!("(no {name} yet)"));
        self.p.enums.push(EnumDef {
            name: name.to_string(),
            variants,
            span: Span::default(),
        });
        self.p.events.push(EventDef {
            name: name.to_string(),
            cases,
            sort,
            span: Span::default(),
        });
        id
    }

    /// `action NAME [by owner] [if guard] { cases }`, where `sees` lists the characters
    /// who tell the cases apart (the others tell none apart).
    fn action(
        &mut self,
        name: &str,
        owner: Option<usize>,
        guard: Option<Expr>,
        cases: Vec<Case>,
        sees: &[usize],
    ) -> ActionId {
        let event = self.event(name, cases.iter().map(|c| c.name.clone()).collect());
        let n = self.p.characters.len();
        let body = EventStmt {
            event,
            sees: (0..n)
                .map(|a| sees.contains(&a).then(|| (0..cases.len()).collect()))
                .collect(),
            cases,
            expects: vec![None; n],
            actual: None,
            actual_at: None,
            occurrences: Vec::new(),
        };
        let offset = self.p.actions.iter().map(|a| a.body.cases.len()).sum();
        self.p.actions.push(ActionDef {
            name: name.to_string(),
            owner: owner.map(CharId),
            guard,
            body,
            offset,
            span: Span::default(),
        });
        ActionId(self.p.actions.len() - 1)
    }

    fn occurrence(&mut self, event: EventId, name: String) -> ConstId {
        self.p.constants.push(Constant {
            name,
            ty: Ty::Enum(self.p.events[event.0].sort),
            span: Span::default(),
            occurrence: Some(Occurrence { event }),
        });
        ConstId(self.p.constants.len() - 1)
    }

    /// The plan's steps: one event of every action's cases, `depth` occurrences.
    fn steps(&mut self, depth: usize) {
        let cases = (self.p.actions.iter())
            .flat_map(|a| {
                a.body
                    .cases
                    .iter()
                    .map(|c| format!("{}.{}", a.name, c.name))
            })
            .collect();
        let event = self.event("(step)", cases);
        let occurrences = (0..depth)
            .map(|k| self.occurrence(event, format!("(step)#{k}")))
            .collect();
        self.p.plan_steps = Some(PlanSteps { event, occurrences });
    }

    /// One step of a `do` line, written at `start`.
    fn step(&mut self, action: ActionId, actual: Option<usize>, start: usize) -> DoStep {
        let def = &self.p.actions[action.0];
        let (event, name) = (def.body.event, def.name.clone());
        let occ = self.occurrence(event, format!("{name}#{start}"));
        let span = Span::new(start, start + 1);
        let mut body = self.p.actions[action.0].body.clone();
        body.actual = actual;
        body.actual_at = actual.map(|_| span);
        body.occurrences = vec![occ];
        DoStep {
            action,
            event: body,
            span,
        }
    }

    fn run(&mut self, statements: Vec<Stmt>) -> Trace {
        self.p.statements = statements;
        let ranges = vec![None; self.p.constants.len()];
        trace(&self.p, &Domain { ranges })
    }
}

/// The plans of the trace's reports, by action index, in order.
fn plans(t: &Trace) -> Vec<Vec<Vec<usize>>> {
    (t.events.iter())
        .filter_map(|r| match r {
            Report::Plan { plans, .. } => Some(
                plans
                    .iter()
                    .map(|p| p.iter().map(|a| a.0).collect())
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}

/// p: a public announcement `tell` (only where p holds) makes B know it; `wait` does
/// nothing; `do tell` does it.
#[test]
fn a_public_announcement_makes_b_know() {
    let mut s = Story::new(&["A", "B"], &["p"]);
    s.action("wait", None, None, vec![case("waited", None, vec![])], &[]);
    s.action(
        "tell",
        Some(0),
        None,
        vec![case("told", Some(b(0)), vec![])],
        &[],
    );
    s.steps(2);
    let goal = knows(1, b(0));
    let t = s.run(vec![
        st(StmtKind::Actual(b(0))),
        at(StmtKind::Plan(Box::new(plan(2, goal.clone(), 2))), 7),
    ]);
    assert_eq!(
        t.events,
        vec![Report::Plan {
            span: Span::new(7, 8),
            max: 2,
            plans: vec![vec![ActionId(1)]],
        }]
    );
    // A question: both worlds are still possible (the steps' slots not yet filled).
    assert_eq!(t.end.map(|w| w.len()), Ok(2));

    // Done, B knows p: B's worlds are p's alone, the case `told`.
    let tell = s.step(ActionId(1), None, 20);
    let t = s.run(vec![
        st(StmtKind::Actual(b(0))),
        st(StmtKind::Do(vec![tell])),
        st(StmtKind::Check(goal.clone())),
    ]);
    assert_eq!(
        t.events,
        vec![
            Report::Happened {
                span: Span::new(20, 21),
                round: None,
                case: Some(0),
                saw: vec![vec![0], vec![0]],
            },
            Report::CheckHolds {
                span: Span::default()
            },
        ]
    );
    let worlds = t.end.expect("the story runs");
    assert_eq!(worlds.len(), 1);
    assert_eq!(worlds[0].0[0], Value::Bool(true));

    // Already known: the empty plan.
    let t = s.run(vec![
        st(StmtKind::Actual(b(0))),
        st(StmtKind::Announce {
            speaker: None,
            formula: b(0),
        }),
        st(StmtKind::Plan(Box::new(plan(2, goal, 2)))),
    ]);
    assert_eq!(plans(&t), vec![vec![Vec::<usize>::new()]]);
}

/// Two public announcements (of p, of q) are needed; `plan` gives the first in the order
/// of action ids, `plan all` both orders; with at most one action there is none.
#[test]
fn two_actions_and_plan_all() {
    let mut s = Story::new(&["A", "B"], &["p", "q"]);
    s.action(
        "tellp",
        None,
        None,
        vec![case("told", Some(b(0)), vec![])],
        &[],
    );
    s.action(
        "tellq",
        None,
        None,
        vec![case("told", Some(b(1)), vec![])],
        &[],
    );
    s.steps(3);
    let goal = and(knows(1, b(0)), knows(1, b(1)));
    let actual = st(StmtKind::Actual(and(b(0), b(1))));
    let one = plan(2, goal.clone(), 3);
    let all = PlanStmt {
        all: true,
        ..one.clone()
    };
    let short = plan(2, goal, 1);
    let t = s.run(vec![
        actual,
        st(StmtKind::Plan(Box::new(one))),
        st(StmtKind::Plan(Box::new(all))),
        st(StmtKind::Plan(Box::new(short))),
    ]);
    assert_eq!(
        plans(&t),
        vec![vec![vec![0, 1]], vec![vec![0, 1], vec![1, 0]], vec![]]
    );
    assert_eq!(t.end.map(|w| w.len()), Ok(4));
}

/// `plan all` lists the plans in the order of action ids whatever the order of the
/// statement's list.
#[test]
fn plan_all_orders_by_action_id() {
    let mut s = Story::new(&["A", "B"], &["p", "q"]);
    s.action(
        "tellp",
        None,
        None,
        vec![case("told", Some(b(0)), vec![])],
        &[],
    );
    s.action(
        "tellq",
        None,
        None,
        vec![case("told", Some(b(1)), vec![])],
        &[],
    );
    s.steps(2);
    let goal = and(knows(1, b(0)), knows(1, b(1)));
    let all = PlanStmt {
        actions: vec![ActionId(1), ActionId(0)],
        all: true,
        ..plan(2, goal, 2)
    };
    let t = s.run(vec![
        st(StmtKind::Actual(and(b(0), b(1)))),
        st(StmtKind::Plan(Box::new(all))),
    ]);
    assert_eq!(plans(&t), vec![vec![vec![0, 1], vec![1, 0]]]);
}

/// B must learn p while C does not: shouting it (the first plan otherwise) breaks
/// `keeping not knows(C, p)`, whispering it to B does not.
#[test]
fn keeping_prunes_a_plan() {
    let mut s = Story::new(&["A", "B", "C"], &["p"]);
    s.action(
        "shout",
        None,
        None,
        vec![case("shouted", Some(b(0)), vec![])],
        &[],
    );
    let whisper = vec![
        case("yes", Some(b(0)), vec![]),
        case("no", Some(not(b(0))), vec![]),
    ];
    s.action("whisper", None, None, whisper, &[1]);
    s.steps(2);
    let free = plan(2, knows(1, b(0)), 2);
    let kept = PlanStmt {
        keeping: Some(not(knows(2, b(0)))),
        ..free.clone()
    };
    let kept_all = PlanStmt {
        all: true,
        ..kept.clone()
    };
    let t = s.run(vec![
        st(StmtKind::Actual(b(0))),
        st(StmtKind::Plan(Box::new(free))),
        st(StmtKind::Plan(Box::new(kept))),
        st(StmtKind::Plan(Box::new(kept_all))),
    ]);
    assert_eq!(plans(&t), vec![vec![vec![0]], vec![vec![1]], vec![vec![1]]]);
}

/// A coin (heads sets x, tails clears it) may fall either way at the actual world: not
/// a plan for x, whichever the length; setting x is.
#[test]
fn a_nondeterministic_action_is_not_a_plan() {
    let mut s = Story::new(&["A"], &["x"]);
    let coin = vec![
        case("heads", None, vec![(0, true)]),
        case("tails", None, vec![(0, false)]),
    ];
    s.action("flip", None, None, coin, &[0]);
    s.action(
        "set",
        None,
        None,
        vec![case("set", None, vec![(0, true)])],
        &[],
    );
    s.steps(3);
    let flips = PlanStmt {
        actions: vec![ActionId(0)],
        ..plan(2, b(0), 3)
    };
    let t = s.run(vec![
        st(StmtKind::Actual(not(b(0)))),
        st(StmtKind::Plan(Box::new(flips))),
        st(StmtKind::Plan(Box::new(PlanStmt {
            all: true,
            ..plan(2, b(0), 3)
        }))),
    ]);
    assert_eq!(plans(&t), vec![vec![], vec![vec![1]]]);
    // The plans changed nothing: x as it was, the steps' slots not yet filled (3).
    let world = |x: bool| {
        World(vec![
            Value::Bool(x),
            Value::Int(3),
            Value::Int(3),
            Value::Int(3),
        ])
    };
    assert_eq!(t.end, Ok(vec![world(false), world(true)]));

    // Where only heads can happen, flipping is a plan.
    let mut s = Story::new(&["A"], &["x", "fair"]);
    let coin = vec![
        case("heads", None, vec![(0, true)]),
        case("tails", Some(b(1)), vec![(0, false)]),
    ];
    s.action("flip", None, None, coin, &[0]);
    s.steps(1);
    let t = s.run(vec![
        st(StmtKind::Actual(and(not(b(0)), not(b(1))))),
        st(StmtKind::Plan(Box::new(plan(1, b(0), 1)))),
    ]);
    assert_eq!(plans(&t), vec![vec![vec![0]]]);
}

/// A opens the door (o := true), which works only where it is unlocked (u). It is, so
/// opening is a plan; coordinated only once A knows it is unlocked.
#[test]
fn coordinated_needs_the_owner_to_know() {
    let mut s = Story::new(&["A"], &["u", "o"]);
    s.action(
        "open",
        Some(0),
        None,
        vec![case("opened", Some(b(0)), vec![(1, true)])],
        &[],
    );
    s.steps(2);
    let free = plan(1, b(1), 2);
    let coordinated = PlanStmt {
        coordinated: true,
        ..free.clone()
    };
    let t = s.run(vec![
        st(StmtKind::Actual(and(b(0), not(b(1))))),
        st(StmtKind::Plan(Box::new(free))),
        st(StmtKind::Plan(Box::new(coordinated.clone()))),
        st(StmtKind::Learn {
            who: CharId(0),
            what: b(0),
        }),
        st(StmtKind::Plan(Box::new(coordinated))),
    ]);
    assert_eq!(plans(&t), vec![vec![vec![0]], vec![], vec![vec![0]]]);
}

/// Coordination over two steps: B peeks at p (only B sees the result), then tells A
/// what it saw, which needs B to know it. Telling whether p is coordinated: B knows
/// beforehand that after the peek it can tell whichever it saw. Telling p only is a plan
/// at the actual world (p), but B does not know beforehand that it will be able to.
#[test]
fn coordinated_over_two_steps() {
    let mut s = Story::new(&["A", "B"], &["p"]);
    let whether = || {
        vec![
            case("yes", Some(b(0)), vec![]),
            case("no", Some(not(b(0))), vec![]),
        ]
    };
    s.action("peek", Some(1), None, whether(), &[1]);
    let guard = Some(knows_whether(1, b(0)));
    s.action("tell_whether", Some(1), guard, whether(), &[0, 1]);
    let guard = Some(knows(1, b(0)));
    let told = vec![case("told", Some(b(0)), vec![])];
    s.action("tell_p", Some(1), guard, told, &[]);
    s.steps(2);
    let goal = knows_whether(0, b(0));
    let using = |actions: [usize; 2], coordinated: bool| {
        st(StmtKind::Plan(Box::new(PlanStmt {
            actions: actions.into_iter().map(ActionId).collect(),
            coordinated,
            all: true,
            ..plan(0, goal.clone(), 2)
        })))
    };
    let t = s.run(vec![
        st(StmtKind::Actual(b(0))),
        using([0, 1], false),
        using([0, 1], true),
        using([0, 2], false),
        using([0, 2], true),
    ]);
    assert_eq!(
        plans(&t),
        vec![vec![vec![0, 1]], vec![vec![0, 1]], vec![vec![0, 2]], vec![]]
    );
}

/// `do` runs each step as an `event` statement: the case written, or the one that can
/// happen at the actual world.
#[test]
fn do_runs_each_step_as_an_event() {
    let mut s = Story::new(&["A", "B"], &["x"]);
    let coin = vec![
        case("heads", None, vec![(0, true)]),
        case("tails", None, vec![(0, false)]),
    ];
    s.action("flip", None, None, coin, &[0]);
    let heads = s.step(ActionId(0), Some(0), 5);
    let t = s.run(vec![
        st(StmtKind::Actual(not(b(0)))),
        st(StmtKind::Do(vec![heads])),
    ]);
    assert_eq!(
        t.events,
        vec![Report::Happened {
            span: Span::new(5, 6),
            round: None,
            case: Some(0),
            saw: vec![vec![0], vec![0, 1]],
        }]
    );
    // Both worlds with both cases; x is as the case made it.
    let x: Vec<Value> = (t.end.expect("the story runs").iter())
        .map(|w| w.0[0])
        .collect();
    assert_eq!(x.iter().filter(|v| **v == Value::Bool(true)).count(), 2);
    let flip = s.step(ActionId(0), None, 11);
    let t = s.run(vec![
        st(StmtKind::Actual(not(b(0)))),
        st(StmtKind::Do(vec![flip])),
    ]);
    assert_eq!(
        t.end,
        Err(Error {
            kind: ErrorKind::Story,
            span: Span::new(11, 12),
            message: "not exactly one case can happen in the actual world".to_string(),
        })
    );
}

/// Without an actual world a condition holds when it holds at every world still
/// possible: revealing whether p (B sees which) makes B know whether p, telling p
/// (possible only where p holds) cannot be done everywhere.
#[test]
fn without_an_actual_world() {
    let mut s = Story::new(&["A", "B"], &["p"]);
    s.action(
        "tell",
        None,
        None,
        vec![case("told", Some(b(0)), vec![])],
        &[],
    );
    let reveal = vec![
        case("yes", Some(b(0)), vec![]),
        case("no", Some(not(b(0))), vec![]),
    ];
    s.action("reveal", None, None, reveal, &[1]);
    s.steps(2);
    let goal = knows_whether(1, b(0));
    let t = s.run(vec![st(StmtKind::Plan(Box::new(PlanStmt {
        all: true,
        ..plan(2, goal.clone(), 2)
    })))]);
    assert_eq!(plans(&t), vec![vec![vec![1]]]);
    let tell = PlanStmt {
        actions: vec![ActionId(0)],
        ..plan(2, goal, 2)
    };
    let t = s.run(vec![st(StmtKind::Plan(Box::new(tell)))]);
    assert_eq!(plans(&t), vec![Vec::<Vec<usize>>::new()]);
}

/// `do` of an action not executable: a story error at the step, naming the action.
#[test]
fn do_an_action_that_cannot_be_done() {
    let error = |start: usize, message: &str| Error {
        kind: ErrorKind::Story,
        span: Span::new(start, start + 1),
        message: format!("the action `tell` cannot be done here: {message}"),
    };
    let mut s = Story::new(&["A", "B"], &["p"]);
    s.action(
        "tell",
        Some(0),
        Some(knows(0, b(0))),
        vec![case("told", Some(b(0)), vec![])],
        &[],
    );
    s.action("nothing", None, None, vec![case("done", None, vec![])], &[]);
    let (nothing, tell) = (s.step(ActionId(1), None, 3), s.step(ActionId(0), None, 9));
    // A does not know p: the guard fails at the actual world (after `nothing` ran).
    let t = s.run(vec![
        st(StmtKind::Actual(b(0))),
        st(StmtKind::Do(vec![nothing.clone(), tell.clone()])),
    ]);
    assert_eq!(
        t.end,
        Err(error(9, "its condition does not hold in the actual world"))
    );
    assert!(matches!(
        t.events.as_slice(),
        [Report::Happened { span, case: Some(0), .. }] if *span == Span::new(3, 4)
    ));
    // Without an actual world, it fails at some world.
    let t = s.run(vec![st(StmtKind::Do(vec![tell.clone()]))]);
    assert_eq!(
        t.end,
        Err(error(
            9,
            "its condition does not hold in every world still possible"
        ))
    );
    // Without the guard, p false: no case can happen.
    s.p.actions[0].guard = None;
    let t = s.run(vec![
        st(StmtKind::Actual(not(b(0)))),
        st(StmtKind::Do(vec![tell.clone()])),
    ]);
    assert_eq!(
        t.end,
        Err(error(9, "none of its cases can happen in the actual world"))
    );
    let t = s.run(vec![st(StmtKind::Do(vec![tell]))]);
    assert_eq!(
        t.end,
        Err(error(
            9,
            "none of its cases can happen in some world still possible"
        ))
    );
}

/// `stories/consecutive-numbers-plan.story` (unbounded ints, planned by Z3) gives the same
/// plans whatever bound the evaluator puts on A and B, as long as the bound is beyond
/// what the plans look at: Bill's "I don't know" then Anne's makes Bill know; with "I
/// know" too, Anne comes to know.
#[test]
fn consecutive_numbers_plans_are_the_same_at_every_bound() {
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../stories/consecutive-numbers-plan.story"
    ))
    .expect("the story");
    let program = epipen::compile(&source, &[]).expect("the story compiles");
    let name = |a: &ActionId| program.actions[a.0].name.clone();
    for bound in [8, 12, 20, 33] {
        let domain = Domain {
            ranges: (program.constants.iter())
                .map(|c| match c.occurrence {
                    Some(_) => Some((0, 1 << 20)),
                    None => Some((0, bound)),
                })
                .collect(),
        };
        let t = trace(&program, &domain);
        assert!(t.end.is_ok(), "bound {bound}: {:?}", t.end);
        let plans: Vec<Vec<Vec<String>>> = (t.events.iter())
            .filter_map(|e| match e {
                Report::Plan { plans, .. } => {
                    Some(plans.iter().map(|p| p.iter().map(name).collect()).collect())
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            plans,
            [
                vec![vec!["bill_dunno", "anne_dunno"]],
                vec![vec!["bill_dunno", "anne_dunno"]],
                vec![vec!["bill_dunno", "anne_dunno", "bill_knows"]],
            ],
            "bound {bound}"
        );
    }
}
