# Imports a .glb with Blender's own glTF importer (default options), plays each animation
# the expected file lists and writes every joint's world position at the listed times, in
# glTF's axes (Y up), keyed by the joint's `unity_path_hash` (the exporter's node extras,
# which the importer keeps as custom properties).
#
#   blender -b --factory-startup --python blender_round_trip.py -- IN.glb WANT.json OUT.json
#
# WANT.json: {"animations": [{"name": ..., "times": [...], "joints": {"<hash>": ...},
#             "shapes": {"<shape key>": ...}}]}  ("shapes" optional)
# OUT.json:  {"<animation>": {"joints": {"<hash>": [[x, y, z] or null per time]},
#                             "shapes": {"<shape key>": [value or null per time]}}}
import json
import math
import sys

import numpy

# Debian's Blender 3.4 importer still uses numpy's removed alias.
numpy.bool = bool

import bpy  # noqa: E402

from io_scene_gltf2.blender.imp.gltf2_blender_animation import BlenderAnimation  # noqa: E402

glb, want_path, out_path = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)

# The imported (rest) transforms, to go back to before each animation: Blender keeps the
# previous action's values on channels the next one lacks, and the importer leaves the
# first animation's values on every channel it has. Taken just before the importer makes
# its first animation.
rest_objects = {}
rest_bones = {}


def snapshot():
    for obj in bpy.data.objects:
        rest_objects[obj.name] = obj.matrix_basis.copy()
        if obj.type == "ARMATURE":
            for pb in obj.pose.bones:
                rest_bones[(obj.name, pb.name)] = (
                    pb.location.copy(),
                    pb.rotation_quaternion.copy(),
                    pb.scale.copy(),
                )


make_animation = BlenderAnimation.anim


def snapshot_then_animate(gltf, anim_idx):
    if not rest_objects:
        snapshot()
    return make_animation(gltf, anim_idx)


BlenderAnimation.anim = staticmethod(snapshot_then_animate)
bpy.ops.import_scene.gltf(filepath=glb)
if not rest_objects:
    snapshot()
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base


def skinned(obj):
    return obj.type == "MESH" and any(m.type == "ARMATURE" for m in obj.modifiers)


# Joints by path hash (the importer keeps the nodes' extras as custom properties).
joints = {}
for obj in bpy.data.objects:
    if obj.type == "ARMATURE":
        for pb in obj.pose.bones:
            h = pb.get("unity_path_hash")
            if h is not None:
                joints[str(int(h))] = (obj, pb.name)
    # A skinned mesh's object is moved under the armature: it is no joint here.
    h = obj.get("unity_path_hash")
    if h is not None and not skinned(obj):
        joints[str(int(h))] = (obj, None)


def shape_key(name):
    """The shape key named `name` (the exporter's `targetNames`) on any mesh, or None."""
    for mesh in bpy.data.meshes:
        keys = mesh.shape_keys
        if keys is not None and name in keys.key_blocks:
            return keys.key_blocks[name]
    return None


def reset():
    for obj in bpy.data.objects:
        obj.matrix_basis = rest_objects[obj.name]
        if obj.type == "ARMATURE":
            for pb in obj.pose.bones:
                loc, rot, scale = rest_bones[(obj.name, pb.name)]
                pb.location = loc
                pb.rotation_mode = "QUATERNION"
                pb.rotation_quaternion = rot
                pb.scale = scale


def play(name):
    """Makes animation `name` (its NLA track) the active action of every object."""
    holders = []
    for obj in bpy.data.objects:
        holders.append(obj)
        keys = getattr(obj.data, "shape_keys", None) if obj.data is not None else None
        if keys is not None:
            holders.append(keys)
    for holder in holders:
        ad = holder.animation_data
        if ad is None:
            continue
        action = None
        for track in ad.nla_tracks:
            track.mute = True
            if track.name == name and len(track.strips) > 0:
                action = track.strips[0].action
        ad.action = action


with open(want_path) as f:
    want = json.load(f)
out = {}
for anim in want["animations"]:
    reset()
    play(anim["name"])
    got = {h: [] for h in anim["joints"]}
    shapes = {n: [] for n in anim.get("shapes", {})}
    for t in anim["times"]:
        frame = t * fps
        whole = math.floor(frame)
        scene.frame_set(int(whole), subframe=frame - whole)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for h in anim["joints"]:
            found = joints.get(h)
            if found is None:
                got[h].append(None)
                continue
            obj, bone = found
            ev = obj.evaluated_get(depsgraph)
            if bone is None:
                p = ev.matrix_world.translation
            else:
                p = ev.matrix_world @ ev.pose.bones[bone].head
            # Blender's Z up back to glTF's Y up.
            got[h].append([p.x, p.z, -p.y])
        for n in shapes:
            block = shape_key(n)
            shapes[n].append(None if block is None else block.value)
    out[anim["name"]] = {"joints": got, "shapes": shapes}
with open(out_path, "w") as f:
    json.dump(out, f)
