//! An SMCDEL file's answers in words close to SMCDEL's own: one block per job, a blank
//! line after each.

use crate::views::{Smcdel, SmcdelAnswer, SmcdelKind};

/// `Is φ true at [1,3]?` / `Is φ valid?` then `True` or `False`; `At which states is φ
/// true?` then each state as its true atoms (`[1,3]`, `[]`).
pub fn smcdel(view: &Smcdel) -> String {
    let mut out = String::new();
    let list = |atoms: &[u64]| -> String {
        let items: Vec<String> = atoms.iter().map(|n| n.to_string()).collect();
        format!("[{}]", items.join(","))
    };
    for job in &view.jobs {
        match job.kind {
            SmcdelKind::True => out.push_str(&format!(
                "Is {} true at {}?\n",
                job.formula,
                list(&job.state)
            )),
            SmcdelKind::Valid => out.push_str(&format!("Is {} valid?\n", job.formula)),
            SmcdelKind::Where => {
                out.push_str(&format!("At which states is {} true?\n", job.formula))
            }
        }
        match &job.answer {
            SmcdelAnswer::Holds(true) => out.push_str("True\n"),
            SmcdelAnswer::Holds(false) => out.push_str("False\n"),
            SmcdelAnswer::States(states) => {
                for state in states {
                    out.push_str(&list(state));
                    out.push('\n');
                }
            }
        }
        out.push('\n');
    }
    out
}
