//! `clipscope texture`: one texture's mip 0 decoded and written as a PNG.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Inputs, report_problems};

#[derive(clap::Args)]
pub struct TextureArgs {
    /// A Unity file or folder holding the texture.
    path: PathBuf,
    /// Path id of the Texture2D (`clipscope list` shows it).
    #[arg(long, allow_negative_numbers = true)]
    path_id: i64,
    /// Where to write the image: RGBA8, top row first, as an image viewer shows it.
    #[arg(long, value_name = "OUT.png")]
    png: PathBuf,
    #[command(flatten)]
    inputs: Inputs,
}

pub fn run(args: &TextureArgs) -> ExitCode {
    let ws = args.inputs.open(std::slice::from_ref(&args.path));
    let found: Vec<_> = ws
        .textures
        .iter()
        .filter(|t| t.at.path_id == args.path_id)
        .collect();
    let texture = match found.as_slice() {
        [one, ..] => *one,
        [] => {
            report_problems(&ws);
            eprintln!(
                "error: no Texture2D with path id {} in {}",
                args.path_id,
                args.path.display()
            );
            let ids: Vec<String> = ws
                .textures
                .iter()
                .map(|t| format!("{} ({})", t.at.path_id, t.name))
                .collect();
            if !ids.is_empty() {
                eprintln!("textures there: {}", ids.join(", "));
            }
            return ExitCode::from(2);
        }
    };
    if found.len() > 1 {
        eprintln!(
            "warning: {} textures have path id {}; writing the one in {}",
            found.len(),
            args.path_id,
            ws.files[texture.at.file].location()
        );
    }
    let Some(image) = &texture.image else {
        report_problems(&ws);
        eprintln!(
            "error: texture {:?} ({}, {}x{}) could not be decoded: {}",
            texture.name,
            clipscope_core::texture::format_name(texture.format),
            texture.width,
            texture.height,
            texture.error.as_deref().unwrap_or("unknown reason")
        );
        return ExitCode::from(1);
    };
    let written = std::fs::File::create(&args.png)
        .map_err(|e| e.to_string())
        .and_then(|f| {
            image
                .write_png(std::io::BufWriter::new(f))
                .map_err(|e| e.to_string())
        });
    if let Err(e) = written {
        eprintln!("error: {}: {e}", args.png.display());
        return ExitCode::from(1);
    }
    eprintln!(
        "wrote {} ({}x{}, {} {:?})",
        args.png.display(),
        image.width,
        image.height,
        clipscope_core::texture::format_name(texture.format),
        texture.name
    );
    report_problems(&ws)
}
