//! The macro's arguments: `vis mod NAME, "path", key = value, ...` parsed
//! into [`Options`], with the span of each option and list entry kept so
//! that the generator's [`OptionError`] lands on what the user wrote.

use std::collections::BTreeMap;

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use rbdgen_symbolic::{
    parse_functions, ContactKind, OptionError, OptionKey, OptionSpec, Options, ScalarType,
};

pub(crate) struct Args {
    pub(crate) vis: syn::Visibility,
    pub(crate) name: Ident,
    pub(crate) path: LitStr,
    pub(crate) options: Options,
    /// Where each option given was written: its key, its list's entries (for
    /// `functions` and `jacobians` in the set's order) and, for
    /// `contact_sets`, each set's contacts.
    pub(crate) spans: BTreeMap<OptionKey, Kept>,
}

#[derive(Default)]
pub(crate) struct Kept {
    pub(crate) key: Option<Span>,
    pub(crate) entries: Vec<Span>,
    nested: Vec<Vec<Span>>,
}

/// The option error as a compile error on the entry (or key) it names.
pub(crate) fn spanned(
    e: &OptionError,
    spans: &BTreeMap<OptionKey, Kept>,
    fallback: Span,
) -> syn::Error {
    let kept = spans.get(&e.option);
    let entry = kept.and_then(|k| match (e.index, e.entry) {
        (Some(i), Some(j)) => k.nested.get(i).and_then(|set| set.get(j)).copied(),
        (Some(i), None) => k.entries.get(i).copied(),
        _ => None,
    });
    let span = entry.or(kept.and_then(|k| k.key)).unwrap_or(fallback);
    syn::Error::new(span, e.render(macro_key))
}

/// An option as the macro spells it: `` `max_ops` ``.
pub(crate) fn macro_key(s: &OptionSpec) -> String {
    format!("`{}`", s.macro_key.unwrap_or(s.name))
}

/// A joint or link name: an identifier or a string literal.
fn parse_name(input: ParseStream) -> syn::Result<(String, Span)> {
    if input.peek(LitStr) {
        let s: LitStr = input.parse()?;
        Ok((s.value(), s.span()))
    } else {
        let id: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        Ok((id.to_string(), id.span()))
    }
}

/// `[ITEM, ...]` with `item` parsing one entry into a value and its span.
fn list<T>(
    input: ParseStream,
    item: fn(ParseStream) -> syn::Result<(T, Span)>,
) -> syn::Result<(Vec<T>, Vec<Span>)> {
    let content;
    syn::bracketed!(content in input);
    Ok(content
        .parse_terminated(item, Token![,])?
        .into_iter()
        .unzip())
}

/// A function name: an identifier.
fn parse_ident(input: ParseStream) -> syn::Result<(String, Span)> {
    let id: Ident = input.parse()?;
    Ok((id.to_string(), id.span()))
}

/// `JOINT: VALUE`, the value a (signed) number.
fn parse_armature(input: ParseStream) -> syn::Result<((String, f64), Span)> {
    let (name, span) = parse_name(input)?;
    input.parse::<Token![:]>()?;
    let negative = input.parse::<Option<Token![-]>>()?.is_some();
    let value = match input.parse::<syn::Lit>()? {
        syn::Lit::Float(f) => f.base10_parse::<f64>()?,
        syn::Lit::Int(i) => i.base10_parse::<f64>()?,
        lit => {
            return Err(syn::Error::new(
                lit.span(),
                "expected a number (kg·m² or kg)",
            ))
        }
    };
    Ok(((name, if negative { -value } else { value }), span))
}

/// `LINK: point` or `LINK: 6d`.
fn parse_contact(input: ParseStream) -> syn::Result<((String, ContactKind), Span)> {
    let (name, span) = parse_name(input)?;
    input.parse::<Token![:]>()?;
    let kind: proc_macro2::TokenTree = input.parse()?;
    let text = kind.to_string();
    let kind = ContactKind::from_name(&text).ok_or_else(|| {
        let message = format!("unknown contact type `{text}`; expected `point` or `6d`");
        syn::Error::new(kind.span(), message)
    })?;
    Ok(((name, kind), span))
}

/// A whole number 0 or more for `key` (`lanes = 4`, `max_ops = 100000`):
/// anything else is an error naming the option, spanned on the value.
fn count(input: ParseStream, key: OptionKey) -> syn::Result<usize> {
    let error = |span| {
        let name = key.spec().macro_key.unwrap_or_default();
        syn::Error::new(span, format!("`{name}` takes a whole number, 0 or more"))
    };
    if input.peek(Token![-]) {
        return Err(error(input.span()));
    }
    let lit: syn::LitInt = input.parse().map_err(|e| error(e.span()))?;
    lit.base10_parse().map_err(|_| error(lit.span()))
}

/// `= VALUE` for `key`: the option's value into `o`, its spans into `kept`.
fn parse_value(
    input: ParseStream,
    key: OptionKey,
    o: &mut Options,
    kept: &mut Kept,
) -> syn::Result<()> {
    let value = !matches!(
        key,
        OptionKey::FloatingBase
            | OptionKey::Mimic
            | OptionKey::Simplify
            | OptionKey::Threads
            | OptionKey::Strict
            | OptionKey::OneLimbAtATime
    );
    if value {
        input.parse::<Token![=]>()?;
    }
    match key {
        OptionKey::FloatingBase => o.floating_base = true,
        OptionKey::Mimic => o.mimic = true,
        OptionKey::Simplify => o.simplify = true,
        OptionKey::Threads => o.threads = true,
        OptionKey::Strict => o.strict = true,
        OptionKey::OneLimbAtATime => o.one_limb_at_a_time = true,
        OptionKey::Functions | OptionKey::Jacobians => {
            let (names, spans): (Vec<String>, Vec<Span>) = list(input, parse_ident)?;
            kept.entries = spans;
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let set = parse_functions(key, &names).map_err(|e| {
                let spans = BTreeMap::from([(key, std::mem::take(kept))]);
                spanned(&e, &spans, Span::call_site())
            })?;
            // The entries in the set's order, as the generator counts them.
            let mut order: Vec<usize> = (0..names.len()).collect();
            order.sort_by_key(|&k| rbdgen_symbolic::Function::from_name(names[k]));
            kept.entries = order.iter().map(|&k| kept.entries[k]).collect();
            *if key == OptionKey::Functions {
                &mut o.functions
            } else {
                &mut o.jacobians
            } = set;
        }
        OptionKey::Scalar => {
            let ty: Ident = input.parse()?;
            o.scalar = ScalarType::from_name(&ty.to_string()).ok_or_else(|| {
                syn::Error::new(
                    ty.span(),
                    format!("unknown scalar `{ty}`; expected `f64` or `f32`"),
                )
            })?;
        }
        OptionKey::Armature => (o.armature, kept.entries) = list(input, parse_armature)?,
        OptionKey::Contacts => (o.contacts, kept.entries) = list(input, parse_contact)?,
        OptionKey::ContactSets => {
            let content;
            syn::braced!(content in input);
            let sets = content.parse_terminated(
                |input: ParseStream| {
                    let name = parse_name(input)?;
                    input.parse::<Token![:]>()?;
                    Ok((name, list(input, parse_contact)?))
                },
                Token![,],
            )?;
            for ((name, span), (set, spans)) in sets {
                o.contact_sets.push((name, set));
                kept.entries.push(span);
                kept.nested.push(spans);
            }
        }
        OptionKey::Parameters => (o.parameters, kept.entries) = list(input, parse_name)?,
        OptionKey::Frames => {
            let (frames, spans) = list(input, parse_name)?;
            (o.frames, kept.entries) = (Some(frames), spans);
        }
        OptionKey::Lanes => o.lanes = Some(count(input, key)?),
        OptionKey::MaxOps => o.max_ops = count(input, key)?,
        OptionKey::UnrollLimit => o.unroll_limit = count(input, key)?,
        // Not macro keys: the macro's code always uses `std`; the C
        // interface, the CasADi module and user functions are the CLI's and
        // the build script's.
        OptionKey::Std | OptionKey::CApi | OptionKey::Casadi | OptionKey::UserFunctions => {}
    }
    Ok(())
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let vis: syn::Visibility = input.parse()?;
        if !input.peek(Token![mod]) {
            return Err(input.error(
                "expected `mod NAME` first: robot_dynamics!(mod NAME, \"path/to/robot.urdf\", ...)",
            ));
        }
        input.parse::<Token![mod]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![,]>()?;
        let path: LitStr = input.parse()?;
        let mut options = Options::default();
        let mut spans = BTreeMap::new();
        while input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let ident: Ident = input.parse()?;
            let key = OptionKey::from_macro_key(&ident.to_string())
                .map_err(|message| syn::Error::new(ident.span(), message))?;
            if spans.contains_key(&key) {
                return Err(syn::Error::new(
                    ident.span(),
                    format!("`{ident}` is given twice; give it once"),
                ));
            }
            let mut kept = Kept {
                key: Some(ident.span()),
                ..Kept::default()
            };
            parse_value(input, key, &mut options, &mut kept)?;
            spans.insert(key, kept);
        }
        Ok(Args {
            vis,
            name,
            path,
            options,
            spans,
        })
    }
}
