//! The command line's and the viewer's integration tests, one binary: every command run on
//! the shared real files and on fixtures, the guide's commands, and the viewer's screenshots.

mod common;

mod animator_files;
mod animator_pose;
mod animator_reference;
mod check;
mod cli;
mod diff;
mod docs_commands;
mod export;
mod folders;
mod hostile_inputs;
mod humanoid_rigs;
mod mirror;
mod pose;
mod renderers;
mod scene_files;
mod unity_versions;
mod unity_write;
mod unity_write_controller;
mod viewer_screenshot;
