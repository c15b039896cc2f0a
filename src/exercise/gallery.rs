//! Ready exercises: the Learn2fix triangle and IntroClass classroom bugs with their fixes for the examples menu, and every starting point of an authored exercise.

use super::{Exercise, EXERCISE_VERSION};
use crate::session::examples::{Example, EXAMPLES};
use crate::session::{Asking, Fuzzer, InputRange, Settings};

/// One gallery exercise: a stable id and the exercise.
#[derive(Debug, Clone, PartialEq)]
pub struct GalleryExercise {
    /// Stable id (used in the examples menu).
    pub id: &'static str,
    /// The exercise.
    pub exercise: Exercise,
}

/// One gallery entry, as written here.
struct Entry {
    id: &'static str,
    title: &'static str,
    instructions: &'static str,
    buggy: &'static str,
    reference: &'static str,
    failing_input: &'static str,
    /// Range of every input position.
    range: (f64, f64),
}

/// The triangle classifier of the Learn2fix paper (the playground's first example is its
/// buggy program) and real student programs with their fixes from the IntroClass
/// benchmark (median: the fix also corrected a prompt typo, left out here so that only
/// the bug separates the outputs).
const ENTRIES: [Entry; 4] = [
    Entry {
        id: "triangle",
        title: "Triangle (Learn2fix)",
        instructions: "The program classifies a triangle from its three sides. It is wrong \
                       for some triangles: find when, label the tests, then fix it.",
        buggy: crate::session::examples::EXAMPLES[0].program,
        reference: include_str!("gallery/triangle-reference.c"),
        failing_input: "2 2 2",
        range: (1.0, 10.0),
    },
    Entry {
        id: "median",
        title: "Median of three (IntroClass)",
        instructions: "The program should print the middle one of three numbers. For some \
                       orders it prints the wrong one: find which, label the tests, then fix it.",
        buggy: include_str!("gallery/median-buggy.c"),
        reference: include_str!("gallery/median-reference.c"),
        failing_input: "6 8 2",
        range: (-20.0, 20.0),
    },
    Entry {
        id: "smallest",
        title: "Smallest of four (IntroClass)",
        instructions: "The program should print the smallest of four numbers. Find the \
                       inputs where it does not, then fix it.",
        buggy: include_str!("gallery/smallest-buggy.c"),
        reference: include_str!("gallery/smallest-reference.c"),
        failing_input: "4 3 2 1",
        range: (-20.0, 20.0),
    },
    Entry {
        id: "grade",
        title: "Letter grade (IntroClass)",
        instructions: "Given the thresholds for A, B, C, D (decreasing) and a score, the \
                       program should print the letter grade. Some scores get the wrong \
                       grade: find them and fix it.",
        buggy: include_str!("gallery/grade-buggy.c"),
        reference: include_str!("gallery/grade-reference.c"),
        failing_input: "80 70 60 50 75",
        range: (0.0, 100.0),
    },
];

/// Every gallery exercise, the triangle first.
pub fn exercises() -> Vec<GalleryExercise> {
    ENTRIES
        .iter()
        .map(|e| {
            let arity = e.failing_input.split_whitespace().count();
            let range = InputRange {
                min: e.range.0,
                max: e.range.1,
            };
            GalleryExercise {
                id: e.id,
                exercise: Exercise {
                    version: EXERCISE_VERSION,
                    title: e.title.to_string(),
                    instructions: e.instructions.to_string(),
                    buggy: e.buggy.to_string(),
                    reference: e.reference.to_string(),
                    failing_input: e.failing_input.to_string(),
                    ranges: vec![Some(range); arity],
                    // The fuzzer and the asking these exercises were published with: a
                    // student's saved work is keyed by the exercise's id, which a new
                    // setting would change.
                    settings: Settings {
                        fuzzer: Fuzzer::Classic,
                        asking: Asking::Legacy,
                        ..Settings::default()
                    },
                },
            }
        })
        .collect()
}

/// The gallery exercise with this id.
pub fn find(id: &str) -> Option<Exercise> {
    exercises()
        .into_iter()
        .find(|g| g.id == id)
        .map(|g| g.exercise)
}

/// A ready exercise to start authoring from: a gallery exercise, or a playground
/// example with its fix as the reference.
#[derive(Debug, Clone, PartialEq)]
pub struct Starter {
    /// Stable id: `exercise:<id>` or `example:<id>`.
    pub id: String,
    /// What the author page's menu says.
    pub label: String,
    /// The exercise, every field filled in.
    pub exercise: Exercise,
}

/// A playground example as an exercise: its buggy program, its fix as the reference,
/// its failing input and range, default settings.
fn example_exercise(e: &Example) -> Exercise {
    let arity = e.failing_input.split_whitespace().count();
    Exercise {
        version: EXERCISE_VERSION,
        title: e.title.to_string(),
        instructions: format!(
            "{} Find the inputs where it goes wrong, label them, then fix it.",
            e.blurb
        ),
        buggy: e.program.to_string(),
        reference: e.reference(),
        failing_input: e.failing_input.to_string(),
        ranges: e
            .range
            .map(|(min, max)| vec![Some(InputRange { min, max }); arity])
            .unwrap_or_default(),
        settings: Settings::default(),
    }
}

/// Everything an exercise can start from: the gallery exercises, then the playground's
/// examples.
pub fn starters() -> Vec<Starter> {
    let exercises = exercises().into_iter().map(|g| Starter {
        id: format!("exercise:{}", g.id),
        label: format!("Exercise: {}", g.exercise.title),
        exercise: g.exercise,
    });
    let examples = EXAMPLES.iter().map(|e| Starter {
        id: format!("example:{}", e.id),
        label: format!("Example: {}", e.title),
        exercise: example_exercise(e),
    });
    exercises.chain(examples).collect()
}

/// The starter with this id.
pub fn starter(id: &str) -> Option<Starter> {
    starters().into_iter().find(|s| s.id == id)
}

/// The starter a draft is, unchanged (`None` for a draft an author has edited).
pub fn starter_of(draft: &Exercise) -> Option<Starter> {
    starters().into_iter().find(|s| &s.exercise == draft)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::active::num::parse_input;

    #[test]
    fn every_starter_is_a_valid_exercise_whose_reference_fixes_the_failing_input() {
        let all = starters();
        assert_eq!(all.len(), exercises().len() + EXAMPLES.len());
        for s in &all {
            let e = &s.exercise;
            e.validate().unwrap_or_else(|err| panic!("{}: {err}", s.id));
            let input = parse_input(&e.failing_input).expect("numbers");
            let truth = e.grader().expect("compiles").truth(&input);
            assert!(truth.bug, "{}: {truth:?}", s.id);
            assert_eq!(starter(&s.id).as_ref(), Some(s));
            assert_eq!(starter_of(e).map(|f| f.id), Some(s.id.clone()));
        }
        // An example's reference prints what the example says it should.
        for ex in EXAMPLES {
            assert_eq!(
                ex.program.matches(ex.fix.0).count(),
                1,
                "{}: the fix is at one place",
                ex.id
            );
            let e = example_exercise(ex);
            let input = parse_input(&e.failing_input).expect("numbers");
            let truth = e.grader().expect("compiles").truth(&input);
            assert_eq!(
                truth.reference_output.trim_end(),
                ex.expected_output,
                "{}",
                ex.id
            );
        }
        let mut edited = all[0].exercise.clone();
        edited.title.push('!');
        assert_eq!(starter_of(&edited), None);
    }

    #[test]
    fn every_gallery_exercise_is_valid_and_fails_on_its_input() {
        let all = exercises();
        let ids: Vec<_> = all.iter().map(|g| g.id).collect();
        assert_eq!(ids, ["triangle", "median", "smallest", "grade"]);
        assert_eq!(crate::session::examples::EXAMPLES[0].id, "triangle");
        for g in &all {
            let e = &g.exercise;
            e.validate().unwrap_or_else(|err| panic!("{}: {err}", g.id));
            let input = parse_input(&e.failing_input).expect("numbers");
            let truth = e.grader().expect("compiles").truth(&input);
            assert!(truth.bug, "{}: {truth:?}", g.id);
            assert_eq!(
                super::super::Exercise::decode_link(&e.encode_link()).as_ref(),
                Ok(e)
            );
        }
    }

    #[test]
    fn the_reference_fixes_the_bug_on_fresh_inputs() {
        for g in exercises() {
            let e = &g.exercise;
            let template = parse_input(&e.failing_input).expect("numbers");
            let check = e
                .grader()
                .expect("compiles")
                .check_fix(&e.reference, &[], &template, &[], 100, 5, true)
                .expect("compiles");
            assert!(check.all_pass(), "{}: {check:?}", g.id);
            let buggy = e
                .grader()
                .expect("compiles")
                .check_fix(
                    &e.buggy,
                    std::slice::from_ref(&template),
                    &template,
                    &[],
                    300,
                    5,
                    true,
                )
                .expect("compiles");
            assert!(
                !buggy.all_pass(),
                "{}: the buggy program looks correct",
                g.id
            );
        }
    }
}
