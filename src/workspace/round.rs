//! The map a round is shown: only when its active subtask names a file of
//! the map, made at the subtask's start and kept for the subtask, never a
//! walk every round.

use std::path::Path;

use super::map::Map;
use crate::lang::Language;

/// The last map made, and what it was made for.
#[derive(Debug, Default)]
pub struct RoundMap {
    made: Option<(String, Map)>,
}

impl RoundMap {
    /// The map's text for a round of `goal` whose active subtask is
    /// `subtask`, when the subtask names a file of the map. It is made when
    /// the subtask changes, not after a write: it sits before the
    /// conversation, and a map made again would send the whole
    /// conversation to be read again (the files the subtask changes are
    /// shown whole after it).
    pub fn for_subtask(
        &mut self,
        root: &Path,
        languages: &[Box<dyn Language>],
        goal: &str,
        subtask: &str,
    ) -> Option<&str> {
        let focus = format!("{goal} {subtask}");
        let stale = match &self.made {
            None => true,
            // A subtask that names no file there needs no fresh map.
            Some((_, map)) if !map.names_a_file(subtask) => return None,
            Some((made_for, _)) => *made_for != focus,
        };
        if stale {
            self.made = Some((focus.clone(), Map::build(root, languages, &focus)));
        }
        let (_, map) = self.made.as_ref()?;
        map.names_a_file(subtask).then(|| map.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_gets_the_map_when_its_subtask_names_a_file_and_a_fresh_one_at_the_next_subtask() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("calc.py"), "x").unwrap();
        let mut round = RoundMap::default();
        let shown = |round: &mut RoundMap, subtask: &str| {
            round
                .for_subtask(dir.path(), &[], "goal", subtask)
                .map(str::to_string)
        };
        assert_eq!(shown(&mut round, "Write hello.py"), None);
        let first = shown(&mut round, "Fix calc.py").unwrap();
        assert!(first.starts_with("WORKSPACE (1 files"), "{first}");
        std::fs::write(dir.path().join("other.py"), "y").unwrap();
        // The same subtask: the map is not made again.
        assert_eq!(shown(&mut round, "Fix calc.py").unwrap(), first);
        let fresh = shown(&mut round, "Test calc.py").unwrap();
        assert!(fresh.starts_with("WORKSPACE (2 files"), "{fresh}");
    }
}
