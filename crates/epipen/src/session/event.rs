//! An event model as front ends draw it (`epipen graph --event NAME`, the playground's
//! `/api/event`): see [`crate::explore::event`].

use super::Session;
use crate::explore::event;
use crate::failure::Failure;
use crate::ir::Program;
use crate::syntax::Located;
use crate::views;
use crate::worlds::Model;

impl Session {
    /// The event model of the event (or action) named `name`: the program that shows
    /// its cases, the model of the cases and its title (`sally-anne.story: event move,
    /// 2 cases`); or an error that lists the story's events.
    pub fn event_model(&self, name: &str) -> Result<(Program, Model, String), Failure> {
        let Some(found) = event::find(&self.program, name) else {
            let names: Vec<String> = (event::names(&self.program).iter())
                .map(|n| format!("`{n}`"))
                .collect();
            let hint = match names.is_empty() {
                true => "the story has no events; declare one with `event NAME { … }`".to_string(),
                false => format!("its events are {}", names.join(", ")),
            };
            return Err(Failure::story(
                Located::nowhere(&self.path, format!("{} has no event `{name}`", self.path))
                    .with_hint(hint),
            ));
        };
        let (program, model) = event::model(&self.program, found);
        let file = std::path::Path::new(&self.path)
            .file_name()
            .map_or(self.path.clone(), |f| f.to_string_lossy().into_owned());
        let n = model.worlds.len();
        let title = format!(
            "{file}: event {name}, {n} case{}",
            if n == 1 { "" } else { "s" }
        );
        Ok((program, model, title))
    }

    /// The event model of `name` as a model's view (its worlds' one value, `case`).
    pub fn event_view(&self, name: &str) -> Result<views::Model, Failure> {
        let (program, model, title) = self.event_model(name)?;
        let shown = Session {
            program: std::rc::Rc::new(program),
            ..self.clone()
        };
        Ok(shown.model_view(&model, title, None))
    }
}
