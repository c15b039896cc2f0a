//! Benchmark subjects (buggy program, golden program, train and held-out tests) as stored in `shared/benchmarks`, and the corpus tooling over them.

pub mod check;
pub mod gcc_record;

use serde::Deserialize;

/// Which program of a subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The buggy program.
    Buggy,
    /// The golden (fixed) program.
    Golden,
}

impl Which {
    /// `"buggy"` or `"golden"`.
    pub fn name(self) -> &'static str {
        match self {
            Which::Buggy => "buggy",
            Which::Golden => "golden",
        }
    }
}

/// One subject file of the corpus.
#[derive(Debug, Clone, Deserialize)]
pub struct Subject {
    pub id: String,
    #[serde(default)]
    pub source: String,
    pub buggy: String,
    pub golden: String,
    pub tests: TestSuites,
    #[serde(default)]
    pub defect_class: Option<String>,
    /// IntroClass: how to extract the answer from stdout.
    #[serde(default)]
    pub oracle: Option<AnswerOracle>,
    #[serde(default)]
    pub meta: serde_json::Value,
}

/// The train (repair) and held-out (validation) tests of a subject.
#[derive(Debug, Clone, Deserialize)]
pub struct TestSuites {
    #[serde(default)]
    pub train: Vec<TestCase>,
    #[serde(default)]
    pub heldout: Vec<TestCase>,
}

/// One recorded test: stdin, the expected answer and what gcc-built binaries did.
#[derive(Debug, Clone, Deserialize)]
pub struct TestCase {
    pub input: String,
    pub output: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub buggy_passes: Option<bool>,
    #[serde(default)]
    pub golden_passes: Option<bool>,
    /// IntroClass: the whole expected stdout, prompts included.
    #[serde(default)]
    pub expected_stdout: Option<String>,
    /// IntroClass: whether the buggy program's output was the same on repeated gcc runs.
    #[serde(default)]
    pub buggy_output_stable: Option<bool>,
    /// Codeflaws: the buggy verdict with glibc's reading of `%I64d` where it differs.
    #[serde(default)]
    pub buggy_passes_linux: Option<bool>,
    /// Codeflaws: the golden verdict with glibc's reading of `%I64d` where it differs.
    #[serde(default)]
    pub golden_passes_linux: Option<bool>,
}

/// IntroClass answer extraction: a regular expression over stdout.
#[derive(Debug, Clone, Deserialize)]
pub struct AnswerOracle {
    #[serde(default)]
    pub pattern: Option<String>,
    #[serde(flatten)]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

/// A subject file that could not be read as a [`Subject`].
#[derive(Debug, thiserror::Error)]
#[error("not a subject file: {0}")]
pub struct SubjectError(#[from] serde_json::Error);

impl Subject {
    /// Parses one subject from its JSON text.
    pub fn from_json(text: &str) -> Result<Subject, SubjectError> {
        Ok(serde_json::from_str(text)?)
    }

    /// Names of tests whose recorded output for `program` (`"buggy"` / `"golden"`) was
    /// unstable across gcc runs (Codeflaws `meta.unstable_train_tests`).
    pub fn unstable_tests(&self, program: &str) -> Vec<String> {
        self.meta
            .get("unstable_train_tests")
            .and_then(|u| u.get(program))
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// All tests, train first then held-out.
    pub fn all_tests(&self) -> impl Iterator<Item = &TestCase> {
        self.tests.train.iter().chain(self.tests.heldout.iter())
    }
}

/// How a subject's answer is read from a program's stdout.
#[derive(Debug, Clone)]
pub enum AnswerExtractor {
    /// The whole stdout is the answer (Codeflaws).
    WholeOutput,
    /// IntroClass: the first match of any alternative (its capture groups joined), or
    /// with `all_matches` every match in order, joined by single spaces.
    Pattern {
        alternatives: Vec<regex::Regex>,
        all_matches: bool,
    },
}

impl AnswerExtractor {
    /// Reads the benchmark's pattern text, e.g. `(-?\d+) is the median` or
    /// `A | B   (case-insensitive)` or `(-?\d)\n   (all matches, in order)`.
    pub fn from_pattern(text: &str) -> Result<AnswerExtractor, regex::Error> {
        let (body, notes) = match text.find("   (") {
            Some(i) => (&text[..i], &text[i..]),
            None => (text, ""),
        };
        let case_insensitive = notes.contains("case-insensitive");
        let all_matches = notes.contains("all matches");
        let body = body.replace("\\n", "\n");
        let alternatives = body
            .split(" | ")
            .map(|alt| {
                regex::RegexBuilder::new(alt)
                    .case_insensitive(case_insensitive)
                    .build()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AnswerExtractor::Pattern {
            alternatives,
            all_matches,
        })
    }

    /// The answer in `stdout`; `None` when the pattern finds nothing.
    pub fn answer(&self, stdout: &str) -> Option<String> {
        match self {
            AnswerExtractor::WholeOutput => Some(stdout.to_string()),
            AnswerExtractor::Pattern {
                alternatives,
                all_matches,
            } => {
                let groups = |caps: regex::Captures| -> String {
                    caps.iter()
                        .skip(1)
                        .flatten()
                        .map(|m| m.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                if *all_matches {
                    let found: Vec<String> = alternatives
                        .iter()
                        .flat_map(|re| re.captures_iter(stdout).map(groups))
                        .collect();
                    (!found.is_empty()).then(|| found.join(" "))
                } else {
                    alternatives
                        .iter()
                        .find_map(|re| re.captures(stdout).map(groups))
                }
            }
        }
    }
}

impl Subject {
    /// The extractor the subject's benchmark uses to read answers from stdout.
    pub fn answer_extractor(&self) -> Result<AnswerExtractor, regex::Error> {
        match self.oracle.as_ref().and_then(|o| o.pattern.as_deref()) {
            Some(pattern) => AnswerExtractor::from_pattern(pattern),
            None => Ok(AnswerExtractor::WholeOutput),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn introclass_patterns_extract_answers() {
        let grade = AnswerExtractor::from_pattern(
            "Student has an ([A-D]) grade | Student has (failed) the course   (case-insensitive)",
        )
        .unwrap();
        assert_eq!(
            grade.answer("Enter > Student has an B grade\n").as_deref(),
            Some("B")
        );
        assert_eq!(
            grade.answer("Student has FAILED the course").as_deref(),
            Some("FAILED")
        );
        assert_eq!(grade.answer("nothing"), None);
        let digits = AnswerExtractor::from_pattern("(-?\\d)\\n   (all matches, in order)").unwrap();
        assert_eq!(
            digits
                .answer("\nEnter an integer > \n4\n3\n-9\nThat's all\n")
                .as_deref(),
            Some("4 3 -9")
        );
        let median = AnswerExtractor::from_pattern("(-?\\d+) is the median").unwrap();
        assert_eq!(
            median.answer("x > -12 is the median\n").as_deref(),
            Some("-12")
        );
    }
}
