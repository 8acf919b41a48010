//! What reading one object of a file gives: the object, or why it could not be read.

/// An object that was found, decoded or with the reason it could not be.
pub(super) struct Found<T> {
    pub path_id: i64,
    pub class_id: i32,
    pub value: Result<T, String>,
}
