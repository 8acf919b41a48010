//! Khronos' glTF-Validator run on exported files, shared by the export unit and
//! integration tests.

/// Runs Khronos' glTF-Validator (the npm package `gltf-validator`) on the file when node
/// and the package are installed (`GLTF_VALIDATOR_DIR`: the folder holding its
/// `node_modules`); says so when it skips.
pub fn validator(glb: &[u8]) {
    let Ok(dir) = std::env::var("GLTF_VALIDATOR_DIR") else {
        eprintln!(
            "SKIP glTF-Validator: set GLTF_VALIDATOR_DIR to a folder with node_modules/gltf-validator"
        );
        return;
    };
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file =
        std::env::temp_dir().join(format!("clipscope-export-{}-{n}.glb", std::process::id()));
    std::fs::write(&file, glb).unwrap();
    let script = format!(
        "const v=require('gltf-validator');const fs=require('fs');\
         v.validateBytes(new Uint8Array(fs.readFileSync({:?}))).then(r=>{{\
         console.log(JSON.stringify(r.issues.messages.filter(m=>m.severity===0)));\
         process.exit(r.issues.numErrors>0?3:0)}}).catch(e=>{{console.error(e);process.exit(4)}});",
        file.display().to_string()
    );
    let out = std::process::Command::new("node")
        .arg("-e")
        .arg(&script)
        .current_dir(&dir)
        .output();
    let _ = std::fs::remove_file(&file);
    match out {
        Ok(o) => assert!(
            o.status.success(),
            "glTF-Validator errors: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => eprintln!("SKIP glTF-Validator: node did not run: {e}"),
    }
}
