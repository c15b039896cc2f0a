//! Benchmark subjects (buggy program, golden program, train and held-out tests) as stored in `shared/benchmarks`.

use serde::Deserialize;

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

    /// All tests, train first then held-out.
    pub fn all_tests(&self) -> impl Iterator<Item = &TestCase> {
        self.tests.train.iter().chain(self.tests.heldout.iter())
    }
}
