//! One [`SearchConfig`](super::SearchConfig) field's value, typed: [`ParamValue`] (a number, a
//! whole number, `true`/`false`, or a name: what JSON and JavaScript carry), and how each field
//! type takes one ([`FieldType`]). `SearchConfig::set_value` sets a field from it; the text of
//! `mcts search --set key=value` is read into one by the field's type first
//! (`SearchConfig::parse_param`), so text and typed values take one path.

use std::fmt;

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// The type of a configuration field (`SearchConfig::FIELDS`): what `mcts search --set
/// key=value` reads its text as, and what the worker's `params` carry for it (a
/// [`ParamValue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    /// A floating-point number.
    Number,
    /// A whole number.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// One of the names in `values`.
    Enum,
}

/// A value of one configuration field, as JSON or JavaScript carries it (serde untagged:
/// `true`, `7`, `0.5`, `"rave"`).
///
/// `Text` is a name for an enum field (`"grave"`); for any other field it is text that is read
/// as `mcts search --set` reads it (`"0.7"`, `"true"`), so the worker protocol's older string
/// values keep working.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number ≥ 0 (exact up to 2^64 − 1, as seeds need).
    Int(u64),
    /// Any other number.
    Number(f64),
    /// An enum field's name, or text to read by the field's type.
    Text(String),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Bool(b) => write!(f, "{b}"),
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Number(x) => write!(f, "{x}"),
            ParamValue::Text(t) => f.write_str(t),
        }
    }
}

impl From<bool> for ParamValue {
    fn from(b: bool) -> Self {
        ParamValue::Bool(b)
    }
}

impl From<u64> for ParamValue {
    fn from(n: u64) -> Self {
        ParamValue::Int(n)
    }
}

impl From<f64> for ParamValue {
    fn from(x: f64) -> Self {
        ParamValue::Number(x)
    }
}

impl From<&str> for ParamValue {
    fn from(t: &str) -> Self {
        ParamValue::Text(t.to_string())
    }
}

impl From<String> for ParamValue {
    fn from(t: String) -> Self {
        ParamValue::Text(t)
    }
}

impl ParamValue {
    /// The value as a number when it is one (`Int` or `Number`).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            ParamValue::Int(n) => Some(n as f64),
            ParamValue::Number(x) => Some(x),
            _ => None,
        }
    }
}

/// One engine parameter as a program hands it over (the page's worker, through
/// serde-wasm-bindgen): a [`ParamValue`], or a value no field takes (`null`, a list, an object),
/// kept with a word for it so that the refusal can name the parameter. Decoding never fails on a
/// value, only on what is not a map of them.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamInput {
    /// A number, `true`/`false` or text.
    Value(ParamValue),
    /// Something else: `null`, `a list`, `an object`, `bytes`.
    Other(&'static str),
}

impl<'de> Deserialize<'de> for ParamInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ParamInput;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number, true or false, or a name")
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<ParamInput, E> {
                Ok(ParamInput::Value(ParamValue::Bool(b)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<ParamInput, E> {
                Ok(ParamInput::Value(u64::try_from(n).map_or(ParamValue::Number(n as f64), ParamValue::Int)))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<ParamInput, E> {
                Ok(ParamInput::Value(ParamValue::Int(n)))
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<ParamInput, E> {
                Ok(ParamInput::Value(ParamValue::Number(x)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ParamInput, E> {
                Ok(ParamInput::Value(ParamValue::Text(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<ParamInput, E> {
                Ok(ParamInput::Value(ParamValue::Text(s)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<ParamInput, E> {
                Ok(ParamInput::Other("null"))
            }
            fn visit_none<E: de::Error>(self) -> Result<ParamInput, E> {
                Ok(ParamInput::Other("null"))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<ParamInput, D::Error> {
                ParamInput::deserialize(d)
            }
            fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<ParamInput, E> {
                Ok(ParamInput::Other("bytes"))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ParamInput, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ParamInput::Other("a list"))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ParamInput, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(ParamInput::Other("an object"))
            }
        }
        d.deserialize_any(V)
    }
}

/// Why a value does not fit a field's type (before the field's range is looked at).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Misfit {
    /// Not of the field's kind (a name for a number, a fraction for a whole number, ...).
    Kind,
    /// A whole number above the largest the field's type holds.
    TooLarge(u64),
}

/// A type a [`SearchConfig`](super::SearchConfig) field has: its [`ParamType`], how it takes a
/// typed value, and its value as one. Implemented for `f64`, the unsigned integers, `bool` and
/// the configuration's enums; the field table of `SearchConfig` is built from it.
pub(crate) trait FieldType: Sized {
    /// The field's type as the schema names it.
    const KIND: ParamType;
    /// Takes `v` (already read from text: never `Text` unless an enum), or says why not.
    fn take(&mut self, v: &ParamValue) -> Result<(), Misfit>;
    /// The value as a [`ParamValue`].
    fn value(&self) -> ParamValue;
    /// The names an enum takes (empty for other types).
    fn names() -> Vec<String> {
        Vec::new()
    }
}

impl FieldType for f64 {
    const KIND: ParamType = ParamType::Number;
    fn take(&mut self, v: &ParamValue) -> Result<(), Misfit> {
        match v.as_f64() {
            Some(x) if x.is_finite() => {
                *self = x;
                Ok(())
            }
            _ => Err(Misfit::Kind),
        }
    }
    fn value(&self) -> ParamValue {
        ParamValue::Number(*self)
    }
}

impl FieldType for bool {
    const KIND: ParamType = ParamType::Boolean;
    fn take(&mut self, v: &ParamValue) -> Result<(), Misfit> {
        match *v {
            ParamValue::Bool(b) => {
                *self = b;
                Ok(())
            }
            _ => Err(Misfit::Kind),
        }
    }
    fn value(&self) -> ParamValue {
        ParamValue::Bool(*self)
    }
}

/// 2^64 as a float: every whole float below it fits a `u64`.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// A whole number ≥ 0 from `v` (an `Int`, or a `Number` with no fraction), as a `u64`.
fn whole(v: &ParamValue) -> Result<u64, Misfit> {
    match *v {
        ParamValue::Int(n) => Ok(n),
        ParamValue::Number(x) if x.is_finite() && x.fract() == 0.0 && x >= 0.0 => {
            if x < TWO_POW_64 {
                Ok(x as u64)
            } else {
                Err(Misfit::TooLarge(u64::MAX))
            }
        }
        _ => Err(Misfit::Kind),
    }
}

macro_rules! unsigned_field {
    ($($t:ty),*) => {$(
        impl FieldType for $t {
            const KIND: ParamType = ParamType::Integer;
            fn take(&mut self, v: &ParamValue) -> Result<(), Misfit> {
                let n = whole(v)?;
                *self = <$t>::try_from(n).map_err(|_| Misfit::TooLarge(<$t>::MAX as u64))?;
                Ok(())
            }
            fn value(&self) -> ParamValue {
                ParamValue::Int(*self as u64)
            }
        }
    )*};
}
unsigned_field!(u32, u64, usize);

/// The names enum `T` takes, read from serde's own message for a name it does not know
/// (`unknown variant ..., expected one of `a`, `b``), so they are the type's variants exactly.
pub(crate) fn variant_names<'de, T: Deserialize<'de>>() -> Vec<String> {
    use serde::de::value::{Error, StrDeserializer};
    use serde::de::IntoDeserializer;
    let probe: StrDeserializer<'_, Error> = "\u{1}".into_deserializer();
    let Err(e) = T::deserialize(probe) else { return Vec::new() };
    let msg = e.to_string();
    let Some(expected) = msg.split_once("expected").map(|(_, rest)| rest) else { return Vec::new() };
    expected.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

/// Implements [`FieldType`] for the configuration's enums (invoked in `config.rs`, where they
/// live): a value is one of their serde names.
macro_rules! enum_field {
    ($($t:ty),*) => {$(
        impl $crate::mcts::param::FieldType for $t {
            const KIND: $crate::mcts::param::ParamType = $crate::mcts::param::ParamType::Enum;
            fn take(&mut self, v: &$crate::mcts::param::ParamValue) -> Result<(), $crate::mcts::param::Misfit> {
                use serde::de::IntoDeserializer;
                let $crate::mcts::param::ParamValue::Text(name) = v else { return Err($crate::mcts::param::Misfit::Kind) };
                let d: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = name.as_str().into_deserializer();
                *self = <$t as serde::Deserialize>::deserialize(d).map_err(|_| $crate::mcts::param::Misfit::Kind)?;
                Ok(())
            }
            fn value(&self) -> $crate::mcts::param::ParamValue {
                match serde_json::to_value(self) {
                    Ok(serde_json::Value::String(s)) => $crate::mcts::param::ParamValue::Text(s),
                    _ => unreachable!("a unit variant serialises to its name"),
                }
            }
            fn names() -> Vec<String> {
                $crate::mcts::param::variant_names::<$t>()
            }
        }
    )*};
}
pub(crate) use enum_field;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_values_decode_typed() {
        let v: Vec<ParamValue> = serde_json::from_str(r#"[true, 7, 0.5, -3, "rave", 18446744073709551615]"#).unwrap();
        assert_eq!(
            v,
            [
                ParamValue::Bool(true),
                ParamValue::Int(7),
                ParamValue::Number(0.5),
                ParamValue::Number(-3.0),
                ParamValue::Text("rave".into()),
                ParamValue::Int(u64::MAX)
            ]
        );
        assert_eq!(serde_json::to_string(&v).unwrap(), r#"[true,7,0.5,-3.0,"rave",18446744073709551615]"#);
        let odd: Vec<ParamInput> = serde_json::from_str(r#"[null, [1, 2], {"a": 1}, 2]"#).unwrap();
        assert_eq!(
            odd,
            [ParamInput::Other("null"), ParamInput::Other("a list"), ParamInput::Other("an object"), ParamInput::Value(ParamValue::Int(2))]
        );
    }

    #[test]
    fn field_types_take_their_kind_only() {
        let mut x = 0.0f64;
        assert_eq!(x.take(&ParamValue::Int(3)), Ok(()));
        assert_eq!(x, 3.0);
        assert_eq!(x.take(&ParamValue::Bool(true)), Err(Misfit::Kind));
        assert_eq!(x.take(&ParamValue::Number(f64::NAN)), Err(Misfit::Kind));
        let mut n = 0u32;
        assert_eq!(n.take(&ParamValue::Number(4.0)), Ok(()));
        assert_eq!(n, 4);
        assert_eq!(n.take(&ParamValue::Number(2.5)), Err(Misfit::Kind));
        assert_eq!(n.take(&ParamValue::Number(-1.0)), Err(Misfit::Kind));
        assert_eq!(n.take(&ParamValue::Int(1 << 40)), Err(Misfit::TooLarge(u32::MAX as u64)));
        assert_eq!(n, 4, "untouched on error");
    }
}
