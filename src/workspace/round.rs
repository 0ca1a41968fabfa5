//! The map the calls of a cycle are shown: made with the plan (the one the
//! planner saw, or at a cycle's start, or at the first round of a resumed
//! run) and kept for the cycle, never a walk every round. It is part of the
//! head every call of the run starts with, where the server's prefix cache
//! keeps it; the files the run changes are shown whole after it.

use std::path::Path;

use super::map::Map;
use crate::lang::Language;

/// The map of the cycle, and which cycle it was made for.
#[derive(Debug, Default)]
pub struct PlanMap {
    made: Option<(u32, String)>,
}

impl PlanMap {
    /// Keeps `map`, made for the plan of `cycle` (the planner was shown it).
    pub fn keep(&mut self, cycle: u32, map: &Map) {
        self.made = Some((cycle, map.text().to_string()));
    }

    /// The map's text for a call of `cycle`, made when this cycle has none
    /// yet; `None` when the folder holds no file.
    pub fn of_cycle(
        &mut self,
        root: &Path,
        languages: &[Box<dyn Language>],
        goal: &str,
        cycle: u32,
    ) -> Option<&str> {
        if self.made.as_ref().is_none_or(|(made, _)| *made != cycle) {
            self.keep(cycle, &Map::build(root, languages, goal));
        }
        let (_, text) = self.made.as_ref()?;
        (!text.is_empty()).then_some(text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_is_made_once_a_cycle() {
        let dir = tempfile::tempdir().unwrap();
        let mut map = PlanMap::default();
        let shown = |map: &mut PlanMap, cycle| {
            map.of_cycle(dir.path(), &[], "goal", cycle)
                .map(str::to_string)
        };
        assert_eq!(shown(&mut map, 0), None, "an empty folder has no map");
        std::fs::write(dir.path().join("calc.py"), "x").unwrap();
        // Kept for the cycle it was made for, though the folder changed.
        assert_eq!(shown(&mut map, 0), None);
        let first = shown(&mut map, 1).unwrap();
        assert!(first.starts_with("WORKSPACE (1 files"), "{first}");
        std::fs::write(dir.path().join("other.py"), "y").unwrap();
        assert_eq!(shown(&mut map, 1).unwrap(), first);
        let fresh = shown(&mut map, 2).unwrap();
        assert!(fresh.starts_with("WORKSPACE (2 files"), "{fresh}");
    }
}
