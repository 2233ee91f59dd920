//! Monte Carlo Tree Search (being written; see issue 3).
