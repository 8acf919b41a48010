//! AnimatorControllers (class 91) and override controllers (class 221): the clips they play.
//!
//! A YAML controller does not list its clips (`m_AnimationClips` exists only in built
//! files): they are the motions of its states, found by walking layers → state machines →
//! states → motions, through blend trees. The walk visits each object once, so shared or
//! cyclic state machines cost nothing extra.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use serde::Deserialize;

use super::document::Document;
use super::values::{YamlRef, from_body, restore, unity_floats};
use crate::unity::class;

const STATE: i32 = 1102;
const STATE_MACHINE: i32 = 1107;
const BLEND_TREE: i32 = 206;

/// A reference to an asset (a clip or a controller): in this file (`guid` empty) or in the
/// asset whose `.meta` file holds `guid`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssetLink {
    pub guid: Option<String>,
    /// The object's file id inside that asset (7400000 for a `.anim` file's clip).
    pub file_id: i64,
    /// The asset's path, found through the `.meta` files of its project (see
    /// [`GuidIndex`](super::GuidIndex)); `None` when not found or in this file.
    pub resolved_path: Option<PathBuf>,
}

/// A link to a clip.
pub type ClipLink = AssetLink;

impl AssetLink {
    /// The link a reference makes; `None` for a null reference.
    pub fn from_ref(r: &YamlRef) -> Option<AssetLink> {
        (!r.is_null()).then(|| AssetLink {
            guid: r.guid.clone(),
            file_id: r.file_id.0,
            resolved_path: None,
        })
    }
}

/// A controller and the clips it plays, in the order the walk meets them, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlController {
    pub name: String,
    pub file_id: i64,
    /// 91 for an AnimatorController, 221 for an AnimatorOverrideController.
    pub class_id: i32,
    pub clips: Vec<ClipLink>,
    /// An override controller's base and its clip pairs.
    pub overrides: Option<TextOverride>,
}

/// What an override controller (class 221) replaces: its base controller (`m_Controller`;
/// `None` when null) and its (original, override) clip pairs whose override is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextOverride {
    pub base: Option<AssetLink>,
    pub pairs: Vec<(ClipLink, ClipLink)>,
}

impl YamlController {
    /// Every asset link: its clips, and an override controller's base and pairs.
    pub fn links(&self) -> impl Iterator<Item = &AssetLink> {
        let overrides = self.overrides.iter().flat_map(|o| {
            o.base
                .iter()
                .chain(o.pairs.iter().flat_map(|(a, b)| [a, b]))
        });
        self.clips.iter().chain(overrides)
    }

    /// [`YamlController::links`], to fill in.
    pub fn links_mut(&mut self) -> impl Iterator<Item = &mut AssetLink> {
        let overrides = self.overrides.iter_mut().flat_map(|o| {
            o.base
                .iter_mut()
                .chain(o.pairs.iter_mut().flat_map(|(a, b)| [a, b]))
        });
        self.clips.iter_mut().chain(overrides)
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Controller {
    m_Name: String,
    m_AnimatorLayers: Vec<Layer>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Layer {
    m_StateMachine: YamlRef,
    /// Synced layers: their own motion for each state of the source layer.
    m_Motions: Vec<MotionRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct MotionRef {
    m_Motion: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct StateMachine {
    m_ChildStates: Vec<ChildState>,
    m_ChildStateMachines: Vec<ChildMachine>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ChildState {
    m_State: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ChildMachine {
    m_StateMachine: YamlRef,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct BlendTree {
    m_Childs: Vec<MotionRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct OverrideController {
    m_Name: String,
    m_Controller: YamlRef,
    m_Clips: Vec<OverridePair>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct OverridePair {
    m_OriginalClip: YamlRef,
    m_OverrideClip: YamlRef,
}

/// The references each controller object leads to, by file id.
#[derive(Default)]
struct Graph {
    edges: HashMap<i64, Vec<YamlRef>>,
    clips_here: HashSet<i64>,
}

/// Reads every controller of a file; documents that fail are reported and left out.
pub(crate) fn controllers(
    documents: &[Document],
    warnings: &mut Vec<String>,
) -> Vec<YamlController> {
    let mut graph = Graph::default();
    let mut roots = Vec::new();
    for doc in documents {
        if let Err(e) = read_node(doc, &mut graph, &mut roots) {
            warnings.push(super::document_error(doc, &e));
        }
    }
    roots
        .into_iter()
        .map(|(mut c, start): (YamlController, Vec<YamlRef>)| {
            c.clips = walk(&graph, start);
            c
        })
        .collect()
}

/// Adds one document's outgoing references to the graph.
fn read_node(
    doc: &Document,
    graph: &mut Graph,
    roots: &mut Vec<(YamlController, Vec<YamlRef>)>,
) -> Result<(), String> {
    let body = || unity_floats(doc.body);
    let edges: Vec<YamlRef> = match doc.class_id {
        class::ANIMATION_CLIP => {
            graph.clips_here.insert(doc.file_id);
            return Ok(());
        }
        class::ANIMATOR_CONTROLLER => {
            let c: Controller = from_body(doc, &body())?;
            let start = c.m_AnimatorLayers.into_iter().flat_map(|l| {
                std::iter::once(l.m_StateMachine).chain(l.m_Motions.into_iter().map(|m| m.m_Motion))
            });
            roots.push((controller(doc, c.m_Name), start.collect()));
            return Ok(());
        }
        class::ANIMATOR_OVERRIDE_CONTROLLER => {
            let c: OverrideController = from_body(doc, &body())?;
            let pairs = c
                .m_Clips
                .iter()
                .filter_map(|p| {
                    Some((
                        AssetLink::from_ref(&p.m_OriginalClip)?,
                        AssetLink::from_ref(&p.m_OverrideClip)?,
                    ))
                })
                .collect();
            let clips = c.m_Clips.into_iter().map(|p| {
                if p.m_OverrideClip.is_null() {
                    p.m_OriginalClip
                } else {
                    p.m_OverrideClip
                }
            });
            let mut found = controller(doc, c.m_Name);
            found.overrides = Some(TextOverride {
                base: AssetLink::from_ref(&c.m_Controller),
                pairs,
            });
            roots.push((found, clips.collect()));
            return Ok(());
        }
        STATE_MACHINE => {
            let m: StateMachine = from_body(doc, &body())?;
            let states = m.m_ChildStates.into_iter().map(|s| s.m_State);
            states
                .chain(m.m_ChildStateMachines.into_iter().map(|s| s.m_StateMachine))
                .collect()
        }
        STATE => {
            let s: MotionRef = from_body(doc, &body())?;
            vec![s.m_Motion]
        }
        BLEND_TREE => {
            let b: BlendTree = from_body(doc, &body())?;
            b.m_Childs.into_iter().map(|c| c.m_Motion).collect()
        }
        _ => return Ok(()),
    };
    graph.edges.insert(doc.file_id, edges);
    Ok(())
}

fn controller(doc: &Document, mut name: String) -> YamlController {
    restore(&mut name);
    YamlController {
        name,
        file_id: doc.file_id,
        class_id: doc.class_id,
        clips: Vec::new(),
        overrides: None,
    }
}

/// Follows references from a controller's layers: local state machines, states and blend
/// trees are walked; anything else (an external asset, a local clip) is a clip.
fn walk(graph: &Graph, start: Vec<YamlRef>) -> Vec<ClipLink> {
    let mut clips = Vec::new();
    let mut seen_nodes = HashSet::new();
    let mut seen_clips = HashSet::new();
    let mut stack: Vec<YamlRef> = start.into_iter().rev().collect();
    while let Some(r) = stack.pop() {
        if r.is_null() {
            continue;
        }
        if let Some(edges) = r.local().and_then(|id| graph.edges.get(&id)) {
            if seen_nodes.insert(r.file_id.0) {
                stack.extend(edges.iter().rev().cloned());
            }
            continue;
        }
        let is_clip = r.guid.is_some() || graph.clips_here.contains(&r.file_id.0);
        if is_clip && seen_clips.insert((r.guid.clone(), r.file_id.0)) {
            clips.extend(AssetLink::from_ref(&r));
        }
    }
    clips
}
