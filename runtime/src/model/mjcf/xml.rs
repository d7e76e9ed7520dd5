//! The XML of an MJCF model as an owned tree of elements that remember their
//! file and line, with every `<include file="..."/>` replaced by the children
//! of the included file's `<mujoco>` root (MuJoCo's semantics), and the
//! reading of attribute values (numbers, keywords) with errors that name the
//! element and its line.
//!
//! The conversion reads xml-rs's stream of events with a stack of open
//! elements, so a chain of thousands of nested `<body>` elements needs no
//! deep recursion (a recursive-descent XML parser takes kilobytes of stack per
//! level in debug builds); only `<include>` recurses, at most
//! [`MAX_INCLUDE_DEPTH`] files deep.

use std::path::{Path, PathBuf};

use xml::common::Position;
use xml::reader::{ParserConfig, XmlEvent};

use crate::error::ModelError;

/// Includes nested deeper than this are refused (a cycle, most likely).
const MAX_INCLUDE_DEPTH: usize = 16;

/// One XML element.
pub(super) struct Element {
    /// The tag, `body`, `joint`, ...
    pub tag: String,
    /// Attributes in document order.
    pub attributes: Vec<(String, String)>,
    /// Child elements (indices into [`Tree::elements`]) in document order,
    /// includes expanded.
    pub children: Vec<usize>,
    /// 1-based line of the start tag.
    pub line: u32,
    /// Index into [`Tree::files`].
    pub file: usize,
}

/// The element tree of a document and the files it was read from.
pub(super) struct Tree {
    /// Every element; the root is element 0.
    pub elements: Vec<Element>,
    /// How errors name each file: empty for the main document, the path as
    /// written in the `<include>` for the others.
    pub files: Vec<String>,
}

impl Tree {
    /// Parses `text`, read from the file `path`: `<include>` paths are
    /// resolved against its directory (MuJoCo's rule); without a path they are
    /// refused.
    pub fn parse(text: &str, path: Option<&Path>) -> Result<Tree, ModelError> {
        let mut tree = Tree {
            elements: Vec::new(),
            files: vec![String::new()],
        };
        let mut chain: Vec<PathBuf> = path.iter().map(|p| p.to_path_buf()).collect();
        let dir = path.map(|p| p.parent().unwrap_or(Path::new(".")));
        tree.read(text, None, 0, dir, &mut chain)?;
        if tree.elements.is_empty() {
            return Err(ModelError::Mjcf {
                location: "line 1".into(),
                element: "XML".into(),
                reason: "no root element".into(),
            });
        }
        Ok(tree)
    }

    /// Reads one document: its root becomes element 0 when `parent` is
    /// `None`; otherwise the root's children are appended to `parent` (an
    /// included file). One pass over xml-rs's events with a stack of open
    /// elements: no recursion per nesting level.
    fn read(
        &mut self,
        text: &str,
        parent: Option<usize>,
        file: usize,
        dir: Option<&Path>,
        chain: &mut Vec<PathBuf>,
    ) -> Result<(), ModelError> {
        let mut reader = ParserConfig::new()
            .ignore_comments(true)
            .create_reader(text.as_bytes());
        // Open elements: Some(index) for a kept one, None for the root of an
        // included file and for the children of an <include>.
        let mut open: Vec<Option<usize>> = Vec::new();
        loop {
            let event = reader.next().map_err(|e| {
                let p = e.position();
                ModelError::Mjcf {
                    location: format!(
                        "{}, column {}",
                        location(&self.files[file], p.row as u32 + 1),
                        p.column + 1
                    ),
                    element: "XML".into(),
                    reason: e.msg().to_string(),
                }
            })?;
            let line = reader.position().row as u32 + 1;
            match event {
                XmlEvent::StartElement {
                    name, attributes, ..
                } => {
                    let tag = name.local_name;
                    let depth = open.len();
                    if depth == 0 && parent.is_some() {
                        if tag != "mujoco" {
                            return Err(ModelError::Mjcf {
                                location: location(&self.files[file], line),
                                element: format!("<{tag}>"),
                                reason: "the root element of an included file must be <mujoco>"
                                    .into(),
                            });
                        }
                        open.push(None);
                        continue;
                    }
                    if depth == 0 && tag != "mujoco" {
                        return Err(ModelError::Mjcf {
                            location: location(&self.files[file], line),
                            element: format!("<{tag}>"),
                            reason: "the root element of an MJCF model must be <mujoco>".into(),
                        });
                    }
                    // The element this one belongs to: the nearest kept one,
                    // or the include's parent for the children of an included root.
                    let owner = match open.last() {
                        Some(Some(p)) => Some(*p),
                        Some(None) if depth == 1 => parent,
                        _ => None,
                    };
                    if depth > 0 && owner.is_none() {
                        // Inside an <include> element: MuJoCo allows nothing there.
                        open.push(None);
                        continue;
                    }
                    let attributes: Vec<(String, String)> = attributes
                        .into_iter()
                        .map(|a| (a.name.local_name, a.value))
                        .collect();
                    if tag == "include" {
                        let owner = owner.unwrap_or(0);
                        let file_attr = attributes
                            .iter()
                            .find(|(k, _)| k == "file")
                            .map(|(_, v)| v.clone());
                        self.include(file_attr, line, owner, file, dir, chain)?;
                        open.push(None);
                        continue;
                    }
                    let index = self.elements.len();
                    self.elements.push(Element {
                        tag,
                        attributes,
                        children: Vec::new(),
                        line,
                        file,
                    });
                    if let Some(p) = owner {
                        self.elements[p].children.push(index);
                    }
                    open.push(Some(index));
                }
                XmlEvent::EndElement { .. } => {
                    open.pop();
                }
                XmlEvent::EndDocument => return Ok(()),
                _ => {}
            }
        }
    }

    /// Replaces an `<include file="..."/>` by the children of that file's root.
    fn include(
        &mut self,
        name: Option<String>,
        line: u32,
        parent: usize,
        file: usize,
        dir: Option<&Path>,
        chain: &mut Vec<PathBuf>,
    ) -> Result<(), ModelError> {
        let here = location(&self.files[file], line);
        let fail = |reason: String| ModelError::Mjcf {
            location: here.clone(),
            element: "<include>".into(),
            reason,
        };
        let name = name.ok_or_else(|| fail("missing `file` attribute".into()))?;
        let Some(dir) = dir else {
            return Err(fail(format!(
                "cannot read `{name}` without the model's directory: load the model \
                 from its file (Model::from_mjcf_file)"
            )));
        };
        let path = dir.join(&name);
        let same = |p: &PathBuf| {
            p == &path
                || matches!((p.canonicalize(), path.canonicalize()), (Ok(a), Ok(b)) if a == b)
        };
        if chain.len() > MAX_INCLUDE_DEPTH || chain.iter().any(same) {
            return Err(fail(format!(
                "`{name}` is included from itself, or includes are nested deeper than \
                 {MAX_INCLUDE_DEPTH} files"
            )));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| fail(format!("cannot read `{name}`: {e}")))?;
        self.files.push(name);
        let included = self.files.len() - 1;
        chain.push(path);
        let result = self.read(&text, Some(parent), included, Some(dir), chain);
        chain.pop();
        result
    }

    /// The element at `index`.
    pub fn get(&self, index: usize) -> &Element {
        &self.elements[index]
    }

    /// An error about element `index`.
    pub fn error(&self, index: usize, reason: impl Into<String>) -> ModelError {
        let e = &self.elements[index];
        ModelError::Mjcf {
            location: location(&self.files[e.file], e.line),
            element: self.label(index),
            reason: reason.into(),
        }
    }

    /// How errors name element `index`: `<joint name="hip">` or `<geom>`.
    pub fn label(&self, index: usize) -> String {
        let e = &self.elements[index];
        match e.attributes.iter().find(|(k, _)| k == "name") {
            Some((_, name)) => format!("<{} name=\"{name}\">", e.tag),
            None => format!("<{}>", e.tag),
        }
    }

    /// The value of attribute `key` of element `index`.
    pub fn attribute(&self, index: usize, key: &str) -> Option<&str> {
        self.elements[index]
            .attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The document as one self-contained XML text: every element with its
    /// attributes, includes already expanded, comments and text dropped; each
    /// element of the main file starts on its line in that file, so that the
    /// errors of a model built from this text give the file's lines.
    pub fn to_xml(&self) -> String {
        let mut out = String::new();
        // The line being written.
        let mut line = 1;
        // (element, closing): children pushed in reverse, then the closing tag.
        let mut stack: Vec<(usize, bool)> = vec![(0, false)];
        while let Some((index, closing)) = stack.pop() {
            let e = &self.elements[index];
            if closing {
                out.push_str(&format!("</{}>", e.tag));
                continue;
            }
            if e.file == 0 && e.line > line {
                out.extend(std::iter::repeat_n('\n', (e.line - line) as usize));
                line = e.line;
            }
            out.push('<');
            out.push_str(&e.tag);
            for (key, value) in &e.attributes {
                out.push_str(&format!(" {key}=\""));
                for c in value.chars() {
                    match c {
                        '&' => out.push_str("&amp;"),
                        '<' => out.push_str("&lt;"),
                        '>' => out.push_str("&gt;"),
                        '"' => out.push_str("&quot;"),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            if e.children.is_empty() {
                out.push_str("/>");
            } else {
                out.push('>');
                stack.push((index, true));
                stack.extend(e.children.iter().rev().map(|&c| (c, false)));
            }
        }
        out.push('\n');
        out
    }

    /// The child elements of `index` with tag `tag`.
    pub fn children_tagged<'a>(
        &'a self,
        index: usize,
        tag: &'a str,
    ) -> impl Iterator<Item = usize> + 'a {
        self.elements[index]
            .children
            .iter()
            .copied()
            .filter(move |&c| self.elements[c].tag == tag)
    }
}

/// `line 12` for the main document, ``file `common/x.xml`, line 12`` for an
/// included one.
fn location(file: &str, line: u32) -> String {
    if file.is_empty() {
        format!("line {line}")
    } else {
        format!("file `{file}`, line {line}")
    }
}

/// An attribute's value with the element it was read from (the element
/// itself or the `<default>` class element that gave it), for errors.
#[derive(Clone, Copy, Debug)]
pub(super) struct Value<'a> {
    /// The text of the value.
    pub text: &'a str,
    /// The element holding it.
    pub element: usize,
    /// The attribute name.
    pub key: &'a str,
}

impl<'a> Value<'a> {
    /// Exactly `N` finite numbers.
    pub fn numbers<const N: usize>(&self, tree: &Tree) -> Result<[f64; N], ModelError> {
        let v = self.list(tree)?;
        v.try_into().map_err(|v: Vec<f64>| {
            tree.error(
                self.element,
                format!(
                    "`{}` must be {N} number{}, found {} in `{}`",
                    self.key,
                    if N == 1 { "" } else { "s" },
                    v.len(),
                    self.text
                ),
            )
        })
    }

    /// One finite number.
    pub fn number(&self, tree: &Tree) -> Result<f64, ModelError> {
        Ok(self.numbers::<1>(tree)?[0])
    }

    /// Any count of finite numbers.
    pub fn list(&self, tree: &Tree) -> Result<Vec<f64>, ModelError> {
        self.text
            .split_whitespace()
            .map(|word| match word.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(tree.error(
                    self.element,
                    format!(
                        "`{}` must hold finite numbers, found `{word}` in `{}`",
                        self.key, self.text
                    ),
                )),
            })
            .collect()
    }

    /// `true` or `false`.
    pub fn boolean(&self, tree: &Tree) -> Result<bool, ModelError> {
        match self.text.trim() {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(tree.error(
                self.element,
                format!("`{}` must be `true` or `false`, found `{other}`", self.key),
            )),
        }
    }

    /// One of `allowed`.
    pub fn keyword(&self, tree: &Tree, allowed: &[&str]) -> Result<&'a str, ModelError> {
        let t = self.text.trim();
        if allowed.contains(&t) {
            Ok(t)
        } else {
            Err(tree.error(
                self.element,
                format!(
                    "`{}` must be one of {}, found `{t}`",
                    self.key,
                    allowed
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ))
        }
    }
}
