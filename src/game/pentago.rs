//! Pentago (placeholder: being written; see issue 2).

use super::{BoardView, Game, MoveError, MoveList, Outcome, Player};

/// A Pentago position (placeholder).
#[derive(Clone, Debug)]
pub struct Pentago {
    rules: PentagoRules,
}

impl Pentago {
    /// Builds from the options after `pentago:` in a spec string.
    ///
    /// # Errors
    /// Always, until Hex is written.
    pub fn from_options(_opts: &[&str]) -> Result<Pentago, String> {
        Err("pentago is not implemented yet".into())
    }
}

impl Game for Pentago {
    type Move = u16;
    fn spec(&self) -> String { "pentago".into() }
    fn move_space(&self) -> usize { unimplemented!() }
    fn move_index(&self, _m: u16) -> usize { unimplemented!() }
    fn move_from_index(&self, _index: usize) -> Option<u16> { unimplemented!() }
    fn to_move(&self) -> Player { unimplemented!() }
    fn outcome(&self) -> Option<Outcome> { unimplemented!() }
    fn ply(&self) -> usize { unimplemented!() }
    fn legal_moves(&self, _out: &mut MoveList<u16>) { unimplemented!() }
    fn is_legal(&self, _m: u16) -> bool { unimplemented!() }
    fn play_unchecked(&mut self, _m: u16) { unimplemented!() }
    fn hash(&self) -> u64 { unimplemented!() }
    fn hash_from_scratch(&self) -> u64 { unimplemented!() }
    fn parse_move(&self, _text: &str) -> Result<u16, MoveError> { unimplemented!() }
    fn format_move(&self, _m: u16) -> String { unimplemented!() }
    fn board_string(&self) -> String { unimplemented!() }
    fn view(&self) -> BoardView { unimplemented!() }
    fn threats(&self, _out: &mut MoveList<Self::Move>) { unimplemented!() }
}

/// Which Pentago rule set (placeholder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PentagoRules {
    /// The published rule book.
    Official,
    /// As OpenSpiel implements it.
    OpenSpiel,
    /// Pentago-Twist (McGill COMP 424).
    Twist,
}
