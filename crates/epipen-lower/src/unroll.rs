//! The unrolling of an aggregate's binders (`sum(i in a..b, j in c..d if guard: …)`):
//! the body lowered once for each combination of values the guard admits, for the
//! aggregates over formulas and ints (expr.rs) and the sums of probability terms
//! (chance.rs).

use epipen_syntax::ast;

use super::Lowerer;

/// The items of an aggregate as they are unrolled.
pub(super) struct Items<T> {
    pub(super) items: Vec<T>,
    /// Some part failed (already reported).
    pub(super) failed: bool,
    /// The body was lowered at least once in live code.
    pub(super) live: bool,
}

impl<T> Default for Items<T> {
    fn default() -> Items<T> {
        Items {
            items: Vec::new(),
            failed: false,
            live: false,
        }
    }
}

impl Lowerer {
    /// Unrolls the binders, collecting the body for each combination the guard admits.
    pub(super) fn unroll<T>(
        &mut self,
        binders: &[ast::Binder],
        guard: Option<&ast::Expr>,
        body: &mut dyn FnMut(&mut Self) -> Option<T>,
        acc: &mut Items<T>,
    ) {
        let Some((binder, rest)) = binders.split_first() else {
            if let Some(guard) = guard {
                match self.compile_time_bool(guard, "the condition of an aggregate") {
                    Some(true) => {}
                    Some(false) => return,
                    None => {
                        acc.failed = true;
                        return;
                    }
                }
            }
            acc.live = true;
            match body(self) {
                Some(item) => acc.items.push(item),
                None => acc.failed = true,
            }
            return;
        };
        self.check_loop_var(&binder.var);
        let Some(values) = self.range(&binder.range) else {
            acc.failed = true;
            return;
        };
        for value in values.iter() {
            if !self.spend(binder.range.span()) {
                acc.failed = true;
                return;
            }
            self.bound(&binder.var.name, value, |l| {
                l.unroll(rest, guard, body, acc);
            });
        }
    }
}
