//! Differential checks against the real agents (issue: prove the model against the releases).
//! Filled in by the oracle work; see tests/oracle/.
