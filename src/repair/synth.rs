//! Linear synthesis from angelic values.
