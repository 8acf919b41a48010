//! What a clip's text holds, before it is spelled: its bindings grouped into Unity's curve
//! kinds with the written keys of every component, names resolved, references chosen.

use super::keys::{TextCurve, align, text_curve};
use super::names::NameBook;
use crate::clip::{BindingKind, ClipData, GenericBinding};
use crate::curve::Curve;

/// Unity's per-kind curve lists, in the order a text clip holds them (and the order the
/// reader turns them back into curves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ListKind {
    Rotation,
    Euler,
    Position,
    Scale,
    Float,
    PPtr,
}

impl ListKind {
    /// The list's field name.
    pub fn field(self) -> &'static str {
        match self {
            ListKind::Rotation => "m_RotationCurves",
            ListKind::Euler => "m_EulerCurves",
            ListKind::Position => "m_PositionCurves",
            ListKind::Scale => "m_ScaleCurves",
            ListKind::Float => "m_FloatCurves",
            ListKind::PPtr => "m_PPtrCurves",
        }
    }

    fn of(kind: BindingKind) -> ListKind {
        match kind {
            BindingKind::Rotation => ListKind::Rotation,
            BindingKind::Euler { .. } => ListKind::Euler,
            BindingKind::Position => ListKind::Position,
            BindingKind::Scale => ListKind::Scale,
            BindingKind::PPtr => ListKind::PPtr,
            _ => ListKind::Float,
        }
    }

    /// Components a curve of the list has.
    pub fn components(self) -> usize {
        match self {
            ListKind::Rotation => 4,
            ListKind::Euler | ListKind::Position | ListKind::Scale => 3,
            _ => 1,
        }
    }

    /// A component's value where the built clip has no curve for it.
    fn default_value(self, component: usize) -> f32 {
        match (self, component) {
            (ListKind::Scale, _) | (ListKind::Rotation, 3) => 1.0,
            _ => 0.0,
        }
    }
}

/// One written curve entry: a binding with its components.
#[derive(Clone, Debug)]
pub struct Group {
    pub list: ListKind,
    pub binding: GenericBinding,
    /// The path written (`unresolved/0x…` where no name table knows the hash).
    pub path: String,
    /// The property written (float and object curves).
    pub attribute: String,
    /// Built curve index of each component; `None` where the clip had none (a default
    /// constant is written).
    pub sources: Vec<Option<usize>>,
    pub curves: Vec<TextCurve>,
}

/// Every group of a clip, with what could not be named or written.
#[derive(Debug, Default)]
pub struct Plan {
    pub groups: Vec<Group>,
    pub unresolved_paths: Vec<String>,
    pub unresolved_attributes: Vec<String>,
    pub dropped: Vec<String>,
}

impl Plan {
    /// Groups the clip's tracks into Unity's lists, in list order.
    pub fn of(clip: &ClipData, names: &NameBook) -> Plan {
        let mut plan = Plan::default();
        for track in &clip.tracks {
            let Some(binding) = clip.bindings.get(track.binding) else {
                continue;
            };
            plan.add(clip, binding, &track.curves, names);
        }
        let unbound = clip.curves.iter().filter(|c| c.binding.is_none()).count();
        if unbound > 0 {
            plan.dropped
                .push(format!("{unbound} curves have no binding in the clip"));
        }
        plan.groups.sort_by_key(|g| g.list);
        plan.unresolved_paths.sort();
        plan.unresolved_paths.dedup();
        plan.unresolved_attributes.sort();
        plan.unresolved_attributes.dedup();
        plan
    }

    fn add(
        &mut self,
        clip: &ClipData,
        binding: &GenericBinding,
        curves: &[usize],
        names: &NameBook,
    ) {
        let list = ListKind::of(binding.kind());
        let path = names.path(binding).unwrap_or_else(|| {
            let hex = format!("0x{:08x}", binding.path);
            self.unresolved_paths.push(hex.clone());
            format!("unresolved/{hex}")
        });
        let attribute = match list {
            ListKind::Float | ListKind::PPtr => {
                names.attribute_name(binding).unwrap_or_else(|| {
                    let hex = format!("0x{:08x}", binding.attribute);
                    self.unresolved_attributes.push(hex.clone());
                    hex
                })
            }
            _ => String::new(),
        };
        let mut sources = vec![None; list.components()];
        for &i in curves {
            let component = clip.curves.get(i).map_or(0, |c| usize::from(c.component));
            match sources.get_mut(component) {
                Some(slot) => *slot = Some(i),
                None => self.dropped.push(format!(
                    "curve {i} ({}) is component {component} of a {}-component binding",
                    binding.describe(),
                    list.components()
                )),
            }
        }
        if list.components() > 1 && sources.iter().any(Option::is_none) {
            self.dropped.push(format!(
                "{}: the clip lacks some components; defaults are written for them",
                binding.describe()
            ));
        }
        let rate = clip.sample_rate;
        let mut text: Vec<TextCurve> = sources
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let built = s
                    .and_then(|i| clip.curves.get(i))
                    .map(|c| c.curve.clone())
                    .unwrap_or_else(|| Curve::constant(list.default_value(c)));
                text_curve(&built, clip.start, rate)
            })
            .collect();
        align(&mut text);
        self.groups.push(Group {
            list,
            binding: binding.clone(),
            path,
            attribute,
            sources,
            curves: text,
        });
    }

    /// Keys the built clip stored, over every written curve.
    pub fn keys_in(&self) -> usize {
        self.groups
            .iter()
            .flat_map(|g| g.sources.iter().zip(&g.curves))
            .filter(|(s, _)| s.is_some())
            .map(|(_, c)| c.keys_in)
            .sum()
    }

    /// Keys written, over every component.
    pub fn keys_out(&self) -> usize {
        self.groups
            .iter()
            .flat_map(|g| &g.curves)
            .map(|c| c.keys.len())
            .sum()
    }

    /// Scalar curves written.
    pub fn curve_count(&self) -> usize {
        self.groups.iter().map(|g| g.curves.len()).sum()
    }
}
