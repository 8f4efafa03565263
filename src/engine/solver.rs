//! Every call into Z3 lives in this module.

/// The version of the Z3 library loaded at run time.
pub fn z3_version() -> String {
    z3::full_version().to_string()
}
