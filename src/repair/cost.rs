//! The kinds of edit and the user-editable table of what each costs, with its `key = value` / JSON file format.

use std::fmt;

/// The kinds of edit, each with a cost in the [`CostTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EditKind {
    /// Replace a binary operator by another of its class (f1x's tables).
    ReplaceOperator,
    /// Replace a constant (a number, or a printf/scanf format with one conversion's
    /// length changed).
    ReplaceConstant,
    /// Replace a variable by another in-scope variable of the same type.
    ReplaceVariable,
    /// Replace `a op b` by one operand.
    DropOperand,
    /// `E` becomes `E && B` or `E || B`.
    RefineCondition,
    /// `S` becomes `if (B) S`.
    InsertGuard,
    /// `v = e;` inserted before a statement.
    InsertAssignment,
    /// A statement removed.
    DeleteStatement,
    /// A copy of another statement inserted before a statement (GenProg insert).
    InsertCopy,
    /// A statement replaced by a copy of another (GenProg replace).
    ReplaceCopy,
    /// A declaration's `int` becomes `long long`, with the printf/scanf conversions of
    /// its variables (those follow-up format edits cost nothing of their own).
    WidenType,
    /// An expression replaced by one synthesised from the tests' angelic values
    /// (`n * (n + 1) / 2`, a whole new condition).
    SynthesiseExpression,
    /// `if (C) { S... }` inserted before a statement: a new branch, its body a copy of the
    /// program's own output, `return`, `break` or assignment, `C` synthesised.
    InsertBranch,
}

impl EditKind {
    /// Every kind, in the cost table's order.
    pub const ALL: [EditKind; 13] = [
        EditKind::ReplaceOperator,
        EditKind::ReplaceConstant,
        EditKind::ReplaceVariable,
        EditKind::DropOperand,
        EditKind::RefineCondition,
        EditKind::InsertGuard,
        EditKind::InsertAssignment,
        EditKind::DeleteStatement,
        EditKind::InsertCopy,
        EditKind::ReplaceCopy,
        EditKind::WidenType,
        EditKind::SynthesiseExpression,
        EditKind::InsertBranch,
    ];

    /// A short name (the cost file's key).
    pub fn name(self) -> &'static str {
        match self {
            EditKind::ReplaceOperator => "replace_operator",
            EditKind::ReplaceConstant => "replace_constant",
            EditKind::ReplaceVariable => "replace_variable",
            EditKind::DropOperand => "drop_operand",
            EditKind::RefineCondition => "refine_condition",
            EditKind::InsertGuard => "insert_guard",
            EditKind::InsertAssignment => "insert_assignment",
            EditKind::DeleteStatement => "delete_statement",
            EditKind::InsertCopy => "insert_copy",
            EditKind::ReplaceCopy => "replace_copy",
            EditKind::WidenType => "widen_type",
            EditKind::SynthesiseExpression => "synthesise_expression",
            EditKind::InsertBranch => "insert_branch",
        }
    }

    /// Edits that only remove behaviour (ranked below others of equal validation).
    pub fn only_deletes(self) -> bool {
        self == EditKind::DeleteStatement
    }
}

/// Cost of each kind of edit (cost-aware repair: the user's intent enters through costs).
/// Costs are whole numbers; a patch costs the sum of its edits; a budget bounds the total.
/// Defaults follow f1x's syntactic distance (changed AST nodes, operator swaps cheapest)
/// and GenProg's statement edits (dearer: they change more code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CostTable {
    /// Replace a binary operator by another of its class. Default 1.
    pub replace_operator: u32,
    /// Replace an integer constant (+-1, another program constant, a small integer). Default 2.
    pub replace_constant: u32,
    /// Replace a variable by another in-scope variable of the same type. Default 2.
    pub replace_variable: u32,
    /// Replace `a op b` by `a` or `b`. Default 2.
    pub drop_operand: u32,
    /// Refine a condition `E` into `E && B` or `E || B`. Default 4.
    pub refine_condition: u32,
    /// Wrap a statement in `if (B)`. Default 4.
    pub insert_guard: u32,
    /// Insert an assignment `v = e;` before a statement. Default 4.
    pub insert_assignment: u32,
    /// Delete a statement. Default 3.
    pub delete_statement: u32,
    /// Insert a copy of another statement of the program before a statement. Default 5.
    pub insert_copy: u32,
    /// Replace a statement by a copy of another. Default 5.
    pub replace_copy: u32,
    /// Widen a declaration's `int` to `long long` (with its variables' conversions).
    /// Default 3.
    pub widen_type: u32,
    /// Replace an expression by one synthesised from the tests. Default 4.
    pub synthesise_expression: u32,
    /// Insert a new branch `if (C) { ... }` before a statement. Default 6 (a guard and a
    /// copy).
    pub insert_branch: u32,
    /// Extra cost per AST node of a new condition or expression beyond a single atom
    /// such as `x < 3` (so longer conditions cost more). Default 1.
    pub extra_node: u32,
}

impl Default for CostTable {
    fn default() -> Self {
        CostTable {
            replace_operator: 1,
            replace_constant: 2,
            replace_variable: 2,
            drop_operand: 2,
            refine_condition: 4,
            insert_guard: 4,
            insert_assignment: 4,
            delete_statement: 3,
            insert_copy: 5,
            replace_copy: 5,
            widen_type: 3,
            synthesise_expression: 4,
            insert_branch: 6,
            extra_node: 1,
        }
    }
}

/// The names of the table's entries, as used in cost files.
pub const COST_KEYS: [&str; 14] = [
    "replace_operator",
    "replace_constant",
    "replace_variable",
    "drop_operand",
    "refine_condition",
    "insert_guard",
    "insert_assignment",
    "delete_statement",
    "insert_copy",
    "replace_copy",
    "widen_type",
    "synthesise_expression",
    "insert_branch",
    "extra_node",
];

/// A cost file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CostError {
    /// A line is not `key = value`.
    #[error("line {line}: expected 'key = value', found '{text}'")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// The line's text.
        text: String,
    },
    /// The key is not one of [`COST_KEYS`].
    #[error("unknown cost '{0}' (known: {keys})", keys = COST_KEYS.join(", "))]
    UnknownKey(String),
    /// The value is not a whole number (`inf` / `trusted` are allowed and mean never).
    #[error("cost of '{key}' is not a whole number: '{value}'")]
    BadValue {
        /// The entry.
        key: String,
        /// The text given.
        value: String,
    },
    /// The JSON text is not an object of numbers.
    #[error("cost JSON: {0}")]
    Json(String),
}

/// The cost that means "never use this kind of edit".
pub const NEVER: u32 = u32::MAX;

impl CostTable {
    /// The cost of one edit of `kind`.
    pub fn of(&self, kind: EditKind) -> u32 {
        match kind {
            EditKind::ReplaceOperator => self.replace_operator,
            EditKind::ReplaceConstant => self.replace_constant,
            EditKind::ReplaceVariable => self.replace_variable,
            EditKind::DropOperand => self.drop_operand,
            EditKind::RefineCondition => self.refine_condition,
            EditKind::InsertGuard => self.insert_guard,
            EditKind::InsertAssignment => self.insert_assignment,
            EditKind::DeleteStatement => self.delete_statement,
            EditKind::InsertCopy => self.insert_copy,
            EditKind::ReplaceCopy => self.replace_copy,
            EditKind::WidenType => self.widen_type,
            EditKind::SynthesiseExpression => self.synthesise_expression,
            EditKind::InsertBranch => self.insert_branch,
        }
    }

    /// The cost of the cheapest kind of edit.
    pub fn cheapest(&self) -> u32 {
        EditKind::ALL
            .iter()
            .map(|&k| self.of(k))
            .min()
            .unwrap_or(NEVER)
    }

    fn slot(&mut self, key: &str) -> Option<&mut u32> {
        Some(match key {
            "replace_operator" => &mut self.replace_operator,
            "replace_constant" => &mut self.replace_constant,
            "replace_variable" => &mut self.replace_variable,
            "drop_operand" => &mut self.drop_operand,
            "refine_condition" => &mut self.refine_condition,
            "insert_guard" => &mut self.insert_guard,
            "insert_assignment" => &mut self.insert_assignment,
            "delete_statement" => &mut self.delete_statement,
            "insert_copy" => &mut self.insert_copy,
            "replace_copy" => &mut self.replace_copy,
            "widen_type" => &mut self.widen_type,
            "synthesise_expression" => &mut self.synthesise_expression,
            "insert_branch" => &mut self.insert_branch,
            "extra_node" => &mut self.extra_node,
            _ => return None,
        })
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), CostError> {
        let v = match value.trim() {
            "inf" | "never" | "trusted" => NEVER,
            t => t.parse::<u32>().map_err(|_| CostError::BadValue {
                key: key.to_string(),
                value: t.to_string(),
            })?,
        };
        *self
            .slot(key)
            .ok_or_else(|| CostError::UnknownKey(key.to_string()))? = v;
        Ok(())
    }

    /// Reads a cost file over the defaults: either a JSON object `{"delete_statement": 10}`
    /// or lines `key = value` (`#` starts a comment; `inf` means never). Missing keys keep
    /// their defaults.
    pub fn parse(text: &str) -> Result<CostTable, CostError> {
        let mut table = CostTable::default();
        if text.trim_start().starts_with('{') {
            let v: serde_json::Value =
                serde_json::from_str(text).map_err(|e| CostError::Json(e.to_string()))?;
            let obj = v
                .as_object()
                .ok_or_else(|| CostError::Json("expected an object".into()))?;
            for (k, v) in obj {
                let s = match v {
                    serde_json::Value::Number(n) => n.to_string(),
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                table.set(k, &s)?;
            }
            return Ok(table);
        }
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((k, v)) = line.split_once('=') else {
                return Err(CostError::Syntax {
                    line: i + 1,
                    text: raw.to_string(),
                });
            };
            table.set(k.trim(), v)?;
        }
        Ok(table)
    }
}

/// Prints the table in the `key = value` file format (reads back with [`CostTable::parse`]).
impl fmt::Display for CostTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut copy = self.clone();
        for key in COST_KEYS {
            let v = copy.slot(key).map_or(0, |v| *v);
            if v == NEVER {
                writeln!(f, "{key} = inf")?;
            } else {
                writeln!(f, "{key} = {v}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_files_round_trip_and_reject_unknown_keys() {
        let t = CostTable::parse("# mine\ndelete_statement = 9\ninsert_copy = inf\n").unwrap();
        assert_eq!(t.delete_statement, 9);
        assert_eq!(t.insert_copy, NEVER);
        assert_eq!(t.replace_operator, 1);
        assert_eq!(CostTable::parse(&t.to_string()).unwrap(), t);
        let j = CostTable::parse("{\"replace_constant\": 7}").unwrap();
        assert_eq!(j.replace_constant, 7);
        assert!(matches!(
            CostTable::parse("bogus = 1"),
            Err(CostError::UnknownKey(_))
        ));
        assert!(matches!(
            CostTable::parse("drop_operand 1"),
            Err(CostError::Syntax { line: 1, .. })
        ));
    }
}
