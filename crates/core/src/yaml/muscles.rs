//! Humanoid curve names as YAML clips write them; the table lives in
//! [`crate::clip::muscles`].

pub use crate::clip::muscles::{muscle_index, table_name};
