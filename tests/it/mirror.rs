//! `clipscope pose --mirror on|off|clip` forces or follows a humanoid clip's Mirror flag
//! (`m_Mirror`) on the mirror fixture. The mirrored pose itself is tested in the core's
//! `mirror`.

use crate::common;
use clipscope_authoring::fixtures::mirror as mirror_fixture;

use mirror_fixture::fixture;

#[test]
fn pose_mirror_follows_the_clip_or_forces() {
    let Some(morbman) = common::data("binary/wetboys_plateupemotesapi/morbman") else {
        return;
    };
    let path = fixture("cli");
    let run = |clip: &str, mirror: &str| {
        let (m, p) = (morbman.to_str().unwrap(), path.to_str().unwrap());
        let args = [
            "pose", m, p, "--clip", clip, "--times", "0.5", "--json", "--mirror", mirror,
        ];
        let (code, out, err) = common::clipscope(&args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let joints = |v: &serde_json::Value| v["joints"].clone();
    let clip_own = run("Wave Mirrored", "clip");
    assert_eq!(clip_own["mirrored"], true);
    assert_eq!(clip_own["humanoid"], true);
    assert_eq!(run("Wave", "clip")["mirrored"], false);
    assert_eq!(
        joints(&run("Wave Mirrored", "off")),
        joints(&run("Wave", "clip"))
    );
    assert_eq!(joints(&run("Wave", "on")), joints(&clip_own));
    assert_ne!(joints(&clip_own), joints(&run("Wave", "clip")));
    let (code, _, err) = common::clipscope(&[
        "pose",
        path.to_str().unwrap(),
        "--clip",
        "Wave",
        "--mirror",
        "sideways",
    ]);
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(path.parent().unwrap()).ok();
}
