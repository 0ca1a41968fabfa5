//! The map a round is shown: only when its active subtask names a file of
//! the map, made again after the runner wrote, never a walk every round.

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
    /// `subtask`, when the subtask names a file of the map; `writes` (the
    /// hashes of what the runner wrote) say whether the last map is stale.
    pub fn for_subtask<'s>(
        &mut self,
        root: &Path,
        languages: &[Box<dyn Language>],
        goal: &str,
        subtask: &str,
        writes: impl Iterator<Item = &'s str>,
    ) -> Option<&str> {
        let focus = format!("{goal} {subtask}");
        let key: String = writes.fold(focus.clone(), |key, sha| key + sha);
        let stale = match &self.made {
            None => true,
            // A subtask that names no file there needs no fresh map.
            Some((_, map)) if !map.names_a_file(subtask) => return None,
            Some((made_for, _)) => *made_for != key,
        };
        if stale {
            self.made = Some((key, Map::build(root, languages, &focus)));
        }
        let (_, map) = self.made.as_ref()?;
        map.names_a_file(subtask).then(|| map.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_gets_the_map_when_its_subtask_names_a_file_and_a_fresh_one_after_a_write() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("calc.py"), "x").unwrap();
        let mut round = RoundMap::default();
        let shown = |round: &mut RoundMap, subtask: &str, writes: &[&str]| {
            round
                .for_subtask(dir.path(), &[], "goal", subtask, writes.iter().copied())
                .map(str::to_string)
        };
        assert_eq!(shown(&mut round, "Write hello.py", &[]), None);
        let first = shown(&mut round, "Fix calc.py", &[]).unwrap();
        assert!(first.starts_with("WORKSPACE (1 files"), "{first}");
        std::fs::write(dir.path().join("other.py"), "y").unwrap();
        // Nothing written by the runner: the map is not made again.
        assert_eq!(shown(&mut round, "Fix calc.py", &[]).unwrap(), first);
        let fresh = shown(&mut round, "Fix calc.py", &["abc"]).unwrap();
        assert!(fresh.starts_with("WORKSPACE (2 files"), "{fresh}");
    }
}
