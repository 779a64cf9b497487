//! The library's public surface, as a snapshot a reviewer sees change: every `pub` item of
//! the library's source (functions with their signatures, types with their derives, public
//! fields and variants, `#[non_exhaustive]`, trait impls, re-exports, feature gates), one line
//! each, compared with `tests/public_api.txt`. A change of the surface fails this test until the
//! snapshot is regenerated (`NPUZZLE_BLESS=1 cargo test --test public_api`) and the new
//! snapshot is committed, so the diff shows the change in review.
//!
//! Read from the source with `syn` (stable Rust; rustdoc's JSON needs a nightly compiler and
//! cargo-semver-checks a published baseline, neither of which CI has). Items that are `pub`
//! inside a private module are listed too: most are re-exported, and listing a few
//! unreachable ones costs nothing but a line.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use quote::ToTokens;
use syn::{Attribute, ImplItem, Item, TraitItem, Visibility};

/// The tokens of `node` as one line.
fn text(node: &impl ToTokens) -> String {
    node.to_token_stream().to_string()
}

/// The attributes that change what a user may rely on: derives, `#[non_exhaustive]`,
/// `#[cfg(...)]` and `#[cfg_attr(...)]` gates, `#[repr]`, `#[must_use]`.
fn surface_attrs(attrs: &[Attribute]) -> String {
    let keep = [
        "derive",
        "non_exhaustive",
        "cfg",
        "cfg_attr",
        "repr",
        "must_use",
    ];
    attrs
        .iter()
        .filter(|a| keep.iter().any(|k| a.path().is_ident(k)))
        .map(|a| text(a) + " ")
        .collect()
}

fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && text(a).contains("test"))
}

fn is_pub(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

struct Walker {
    lines: Vec<String>,
}

impl Walker {
    fn module(&mut self, path: &str, file: &Path, items: &[Item]) {
        for item in items {
            self.item(path, file, item);
        }
    }

    fn push(&mut self, line: String) {
        self.lines.push(line);
    }

    fn item(&mut self, path: &str, file: &Path, item: &Item) {
        match item {
            Item::Mod(m) if !is_test_only(&m.attrs) => {
                let child = format!("{path}::{}", m.ident);
                if is_pub(&m.vis) {
                    self.push(format!("{}mod {child}", surface_attrs(&m.attrs)));
                }
                match &m.content {
                    Some((_, items)) => self.module(&child, file, items),
                    None => {
                        let source = module_file(file, &m.ident.to_string());
                        let parsed = parse(&source);
                        self.module(&child, &source, &parsed.items);
                    }
                }
            }
            Item::Fn(f) if is_pub(&f.vis) => {
                self.push(format!(
                    "{}{path}::{}",
                    surface_attrs(&f.attrs),
                    text(&f.sig)
                ));
            }
            Item::Struct(s) if is_pub(&s.vis) => {
                let name = format!("{path}::{}", s.ident);
                self.push(format!(
                    "{}struct {name}{}",
                    surface_attrs(&s.attrs),
                    text(&s.generics)
                ));
                for (i, field) in s.fields.iter().enumerate() {
                    if is_pub(&field.vis) {
                        let field_name = field
                            .ident
                            .as_ref()
                            .map_or_else(|| i.to_string(), |id| id.to_string());
                        self.push(format!(
                            "{}field {name}.{field_name}: {}",
                            surface_attrs(&field.attrs),
                            text(&field.ty)
                        ));
                    }
                }
            }
            Item::Enum(e) if is_pub(&e.vis) => {
                let name = format!("{path}::{}", e.ident);
                self.push(format!(
                    "{}enum {name}{}",
                    surface_attrs(&e.attrs),
                    text(&e.generics)
                ));
                for v in &e.variants {
                    self.push(format!(
                        "{}variant {name}::{}{}",
                        surface_attrs(&v.attrs),
                        v.ident,
                        text(&v.fields)
                    ));
                }
            }
            Item::Trait(t) if is_pub(&t.vis) => {
                let name = format!("{path}::{}", t.ident);
                self.push(format!(
                    "{}trait {name}{}: {}",
                    surface_attrs(&t.attrs),
                    text(&t.generics),
                    text(&t.supertraits)
                ));
                for ti in &t.items {
                    match ti {
                        TraitItem::Fn(f) => self.push(format!(
                            "trait-fn {name}::{}{}",
                            text(&f.sig),
                            if f.default.is_some() {
                                " (provided)"
                            } else {
                                ""
                            }
                        )),
                        TraitItem::Type(ty) => {
                            self.push(format!("trait-type {name}::{}", ty.ident))
                        }
                        TraitItem::Const(c) => {
                            self.push(format!("trait-const {name}::{}: {}", c.ident, text(&c.ty)))
                        }
                        _ => {}
                    }
                }
            }
            Item::Const(c) if is_pub(&c.vis) => {
                self.push(format!(
                    "{}const {path}::{}: {}",
                    surface_attrs(&c.attrs),
                    c.ident,
                    text(&c.ty)
                ));
            }
            Item::Static(s) if is_pub(&s.vis) => {
                self.push(format!("static {path}::{}: {}", s.ident, text(&s.ty)));
            }
            Item::Type(t) if is_pub(&t.vis) => {
                self.push(format!("type {path}::{} = {}", t.ident, text(&t.ty)));
            }
            Item::Use(u) if is_pub(&u.vis) => {
                self.push(format!(
                    "{}use {path}: {}",
                    surface_attrs(&u.attrs),
                    text(&u.tree)
                ));
            }
            Item::Macro(m) if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                let name = m.ident.as_ref().map_or(String::new(), |i| i.to_string());
                self.push(format!("macro {name}!"));
            }
            Item::Impl(i) if !is_test_only(&i.attrs) => {
                let target = format!("{path}: {}{}", text(&i.generics), text(&i.self_ty));
                if let Some((negative, trait_path, _)) = &i.trait_ {
                    self.push(format!(
                        "{}impl {}{} for {target}",
                        surface_attrs(&i.attrs),
                        if negative.is_some() { "!" } else { "" },
                        text(trait_path)
                    ));
                    return;
                }
                for ii in &i.items {
                    match ii {
                        ImplItem::Fn(f) if is_pub(&f.vis) => self.push(format!(
                            "{}impl {target}: {}",
                            surface_attrs(&f.attrs),
                            text(&f.sig)
                        )),
                        ImplItem::Const(c) if is_pub(&c.vis) => {
                            self.push(format!("impl {target}: const {}: {}", c.ident, text(&c.ty)))
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// The file of module `name` declared in `parent` (`src/lib.rs`, a `mod.rs`, or `src/a.rs`
/// whose children live in `src/a/`).
fn module_file(parent: &Path, name: &str) -> PathBuf {
    let dir = parent.parent().expect("a source file has a directory");
    let stem = parent.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let base = if stem == "lib" || stem == "mod" {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        base.join(name).join("mod.rs")
    }
}

fn parse(file: &Path) -> syn::File {
    let source =
        std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    syn::parse_file(&source).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// One line per public item, sorted.
fn surface() -> String {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    let mut walker = Walker { lines: Vec::new() };
    walker.module("npuzzle", &lib, &parse(&lib).items);
    walker.lines.sort();
    walker.lines.dedup();
    let mut out = String::new();
    for line in &walker.lines {
        writeln!(out, "{line}").unwrap();
    }
    out
}

#[test]
fn the_public_surface_matches_the_committed_snapshot() {
    let snapshot = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/public_api.txt");
    let now = surface();
    if std::env::var_os("NPUZZLE_BLESS").is_some() {
        std::fs::write(&snapshot, &now).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&snapshot).unwrap_or_default();
    if committed != now {
        let old: std::collections::BTreeSet<&str> = committed.lines().collect();
        let new: std::collections::BTreeSet<&str> = now.lines().collect();
        let mut diff = String::new();
        for line in old.difference(&new) {
            writeln!(diff, "- {line}").unwrap();
        }
        for line in new.difference(&old) {
            writeln!(diff, "+ {line}").unwrap();
        }
        panic!(
            "the public API changed (review it, then regenerate the snapshot with \
             `NPUZZLE_BLESS=1 cargo test --test public_api` and commit tests/public_api.txt):\n{diff}"
        );
    }
}

#[test]
fn the_snapshot_sees_what_matters() {
    // The walk reaches the items a user relies on; without these the test would pass on an
    // empty snapshot.
    let now = surface();
    for expected in [
        "thiserror :: Error)] # [non_exhaustive] enum npuzzle::answer::NoAnswer",
        "# [non_exhaustive] enum npuzzle::verify::VerdictKind",
        "# [non_exhaustive] enum npuzzle::search::Limit",
        "struct npuzzle::state::State",
        "use npuzzle: answer :: { Answer , AnswerError , How , Method , NoAnswer , Oracle }",
        "impl npuzzle::verify: Verdict: fn kind (& self) -> VerdictKind",
    ] {
        assert!(
            now.lines().any(|l| l.contains(expected)),
            "the surface lacks `{expected}`"
        );
    }
}
