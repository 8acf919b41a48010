//! The GameObject/Transform graph of a `.prefab` or `.unity` file, by file id.
//!
//! The binary structs of [`crate::unity::rig`] cannot be used: their references read YAML's
//! `{fileID: N}` as null, and they lack the fields of nested prefab instances. Stripped
//! objects (placeholders for objects of a nested prefab) carry only their source object and
//! instance; their names and rest poses are recovered from the instance's modifications where
//! those hold them.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::document::Document;
use super::values::{YamlRef, from_body, restore, unity_floats};
use crate::unity::{Quat, Vec3, class};

/// `PrefabInstance` (2018.3+) and `Prefab` (older) documents.
const PREFAB_INSTANCE: i32 = 1001;

/// A GameObject: its name, and its source where stripped.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct YamlGameObject {
    m_Name: String,
    #[serde(alias = "m_PrefabParentObject")]
    m_CorrespondingSourceObject: YamlRef,
    #[serde(alias = "m_PrefabInternal")]
    m_PrefabInstance: YamlRef,
}

#[derive(Debug, Deserialize)]
#[serde(default)]
struct YamlTransform {
    m_GameObject: YamlRef,
    #[serde(alias = "m_PrefabParentObject")]
    m_CorrespondingSourceObject: YamlRef,
    #[serde(alias = "m_PrefabInternal")]
    m_PrefabInstance: YamlRef,
    m_LocalRotation: Quat,
    m_LocalPosition: Vec3,
    m_LocalScale: Vec3,
    m_Children: Vec<YamlRef>,
    m_Father: YamlRef,
}

impl Default for YamlTransform {
    fn default() -> Self {
        YamlTransform {
            m_GameObject: YamlRef::default(),
            m_CorrespondingSourceObject: YamlRef::default(),
            m_PrefabInstance: YamlRef::default(),
            m_LocalRotation: Quat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            },
            m_LocalPosition: Vec3::default(),
            m_LocalScale: Vec3 {
                x: 1.0,
                y: 1.0,
                z: 1.0,
            },
            m_Children: Vec::new(),
            m_Father: YamlRef::default(),
        }
    }
}

/// Animator (`m_Controller`, `m_ApplyRootMotion`) and Animation (`m_Animation`,
/// `m_Animations`) components.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct YamlComponent {
    m_GameObject: YamlRef,
    m_Controller: YamlRef,
    /// A 0/1 scalar.
    m_ApplyRootMotion: i64,
    m_Animation: YamlRef,
    m_Animations: Vec<YamlRef>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct YamlPrefabInstance {
    m_Modification: Modification,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Modification {
    m_Modifications: Vec<PropertyModification>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PropertyModification {
    target: YamlRef,
    propertyPath: String,
    value: String,
}

/// Where a stripped object comes from: its prefab instance in this file and its object in
/// the source prefab (file id and guid).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Source {
    pub instance: i64,
    pub file_id: i64,
    pub guid: String,
}

impl Source {
    fn of(source: &YamlRef, instance: &YamlRef) -> Source {
        Source {
            instance: instance.file_id.0,
            file_id: source.file_id.0,
            guid: source.guid.clone().unwrap_or_default(),
        }
    }

    /// A short description for reports.
    pub fn describe(&self) -> String {
        format!("object {} of prefab {}", self.file_id, self.guid)
    }
}

/// A Transform or RectTransform.
#[derive(Debug)]
pub(crate) struct TransformNode {
    pub game_object: i64,
    pub position: [f32; 3],
    pub rotation: [f32; 4],
    pub scale: [f32; 3],
    pub children: Vec<i64>,
    pub father: i64,
    /// Set for a stripped Transform.
    pub source: Option<Source>,
}

/// A GameObject: its name (`None` when stripped and not renamed in this file).
#[derive(Debug)]
pub(crate) struct GameObjectNode {
    pub name: Option<String>,
    pub source: Option<Source>,
}

/// An Animator or Animation component.
#[derive(Debug)]
pub(crate) struct ComponentNode {
    pub class_id: i32,
    pub file_id: i64,
    pub game_object: i64,
    pub controller: YamlRef,
    /// An Animator's Apply Root Motion.
    pub apply_root_motion: bool,
    pub clips: Vec<YamlRef>,
}

/// The hierarchy of one file.
#[derive(Debug, Default)]
pub(crate) struct Scene {
    pub transforms: HashMap<i64, TransformNode>,
    /// Transform file ids in document order.
    pub order: Vec<i64>,
    pub game_objects: HashMap<i64, GameObjectNode>,
    pub components: Vec<ComponentNode>,
    /// Property modifications of prefab instances: (source, property path) → value.
    modifications: HashMap<(Source, String), String>,
    /// GameObject → its Transform.
    transform_of: HashMap<i64, i64>,
    /// Transform → its GameObject (the inverse of `transform_of`).
    game_object_of: HashMap<i64, i64>,
    /// Transform → its father, from `m_Father` and from the fathers' `m_Children`.
    father_of: HashMap<i64, i64>,
    /// Father → children that name it in `m_Father` but are not in its `m_Children` (every
    /// child of a stripped Transform).
    adopted: HashMap<i64, Vec<i64>>,
}

impl Scene {
    /// Reads the hierarchy documents of a file; documents that fail are reported and left out.
    pub fn read(documents: &[Document], warnings: &mut Vec<String>) -> Scene {
        let mut scene = Scene::default();
        for doc in documents {
            let result = match doc.class_id {
                class::TRANSFORM | class::RECT_TRANSFORM => scene.add_transform(doc),
                class::GAME_OBJECT => scene.add_game_object(doc),
                class::ANIMATOR | class::ANIMATION => scene.add_component(doc),
                PREFAB_INSTANCE => scene.add_instance(doc),
                _ => Ok(()),
            };
            if let Err(e) = result {
                warnings.push(super::document_error(doc, &e));
            }
        }
        scene.link();
        scene
    }

    fn add_transform(&mut self, doc: &Document) -> Result<(), String> {
        let t: YamlTransform = from_body(doc, &unity_floats(doc.body))?;
        let node = TransformNode {
            game_object: t.m_GameObject.local().unwrap_or(0),
            position: t.m_LocalPosition.to_array(),
            rotation: t.m_LocalRotation.to_array(),
            scale: t.m_LocalScale.to_array(),
            children: t.m_Children.iter().filter_map(YamlRef::local).collect(),
            father: t.m_Father.local().unwrap_or(0),
            source: doc
                .stripped
                .then(|| Source::of(&t.m_CorrespondingSourceObject, &t.m_PrefabInstance)),
        };
        if self.transforms.insert(doc.file_id, node).is_none() {
            self.order.push(doc.file_id);
        }
        Ok(())
    }

    fn add_game_object(&mut self, doc: &Document) -> Result<(), String> {
        let mut g: YamlGameObject = from_body(doc, &unity_floats(doc.body))?;
        restore(&mut g.m_Name);
        let node = GameObjectNode {
            name: (!doc.stripped).then(|| g.m_Name.clone()),
            source: doc
                .stripped
                .then(|| Source::of(&g.m_CorrespondingSourceObject, &g.m_PrefabInstance)),
        };
        self.game_objects.insert(doc.file_id, node);
        Ok(())
    }

    fn add_component(&mut self, doc: &Document) -> Result<(), String> {
        let c: YamlComponent = from_body(doc, doc.body)?;
        let mut clips: Vec<YamlRef> = Vec::new();
        clips.extend((!c.m_Animation.is_null()).then(|| c.m_Animation.clone()));
        clips.extend(c.m_Animations.into_iter().filter(|r| !r.is_null()));
        self.components.push(ComponentNode {
            class_id: doc.class_id,
            file_id: doc.file_id,
            game_object: c.m_GameObject.local().unwrap_or(0),
            controller: c.m_Controller,
            apply_root_motion: c.m_ApplyRootMotion != 0,
            clips,
        });
        Ok(())
    }

    fn add_instance(&mut self, doc: &Document) -> Result<(), String> {
        let p: YamlPrefabInstance = from_body(doc, &unity_floats(doc.body))?;
        for m in p.m_Modification.m_Modifications {
            let mut value = m.value;
            restore(&mut value);
            let source = Source {
                instance: doc.file_id,
                file_id: m.target.file_id.0,
                guid: m.target.guid.unwrap_or_default(),
            };
            self.modifications.insert((source, m.propertyPath), value);
        }
        Ok(())
    }

    /// Fills the GameObject ↔ Transform and child → father maps.
    fn link(&mut self) {
        let mut listed = HashSet::new();
        for &id in &self.order {
            for &child in &self.transforms[&id].children {
                listed.insert((id, child));
                self.father_of.entry(child).or_insert(id);
            }
        }
        for &id in &self.order {
            let t = &self.transforms[&id];
            if t.game_object != 0 {
                self.transform_of.entry(t.game_object).or_insert(id);
                self.game_object_of.insert(id, t.game_object);
            }
            if t.father != 0 && !listed.contains(&(t.father, id)) {
                self.father_of.entry(id).or_insert(t.father);
                self.adopted.entry(t.father).or_default().push(id);
            }
        }
        self.pair_stripped();
    }

    /// Links stripped GameObjects to stripped Transforms where [`legacy_pair`] can.
    fn pair_stripped(&mut self) {
        let stripped: HashMap<&Source, i64> = self
            .transforms
            .iter()
            .filter_map(|(&id, t)| Some((t.source.as_ref()?, id)))
            .collect();
        let mut paired: Vec<(i64, i64)> = self
            .game_objects
            .iter()
            .filter(|(id, _)| !self.transform_of.contains_key(id))
            .filter_map(|(&id, g)| Some((id, legacy_pair(g.source.as_ref()?, &stripped)?)))
            .collect();
        paired.sort_unstable();
        for (g, t) in paired {
            self.transform_of.insert(g, t);
            self.game_object_of.entry(t).or_insert(g);
        }
    }

    /// The Transform of a GameObject.
    pub fn transform_of(&self, game_object: i64) -> Option<i64> {
        self.transform_of.get(&game_object).copied()
    }

    /// The GameObject of a Transform.
    pub fn game_object_of(&self, transform: i64) -> Option<i64> {
        self.game_object_of.get(&transform).copied()
    }

    /// The father of a Transform, where this file says.
    pub fn father_of(&self, transform: i64) -> Option<i64> {
        self.father_of.get(&transform).copied()
    }

    /// Children of a Transform: its `m_Children` (a stripped Transform has none) and the
    /// Transforms that name it as `m_Father` without being listed.
    pub fn children_of(&self, transform: i64) -> Vec<i64> {
        let mut children = self
            .transforms
            .get(&transform)
            .map(|t| t.children.clone())
            .unwrap_or_default();
        if let Some(extra) = self.adopted.get(&transform) {
            children.extend(extra.iter().copied());
        }
        children
    }

    /// The name of a Transform's GameObject, or for a stripped one its `m_Name` modification.
    pub fn name_of(&self, transform: i64) -> Option<String> {
        let game_object = self.game_object_of.get(&transform)?;
        let g = self.game_objects.get(game_object)?;
        match (&g.name, &g.source) {
            (Some(name), _) => Some(name.clone()),
            (None, Some(source)) => self.modified(source, "m_Name").map(str::to_string),
            (None, None) => None,
        }
    }

    /// The value a prefab instance sets on a property of one of its objects.
    pub fn modified(&self, source: &Source, property: &str) -> Option<&str> {
        self.modifications
            .get(&(source.clone(), property.to_string()))
            .map(String::as_str)
    }
}

/// Pairs a stripped GameObject with its stripped Transform where the source prefab uses
/// Unity's old numbering (class id × 100000 + n, as model prefabs do): GameObject 100000 + n
/// goes with Transform 400000 + n or RectTransform 22400000 + n. Newer prefabs number objects
/// by hash, and the pair cannot be known from this file.
fn legacy_pair(source: &Source, stripped: &HashMap<&Source, i64>) -> Option<i64> {
    let n = source.file_id - 100_000;
    if !(0..100_000).contains(&n) {
        return None;
    }
    [400_000, 22_400_000].iter().find_map(|base| {
        let candidate = Source {
            file_id: base + n,
            ..source.clone()
        };
        stripped.get(&candidate).copied()
    })
}
