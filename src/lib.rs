//! epipen: solve epistemic logic puzzles with Z3.
pub fn z3_version() -> String {
    z3::full_version().to_string()
}
