//! `ObjectMeta` as the API server's OpenAPI describes it (apimachinery
//! `pkg/apis/meta/v1/types.go` markers): labels and annotations granular maps, finalizers a
//! set, ownerReferences a map keyed by `uid` of atomic structs, managedFields an atomic list,
//! times `date-time` strings (untyped scalars).

use super::{Atom, Compiler, DEDUCED, List, MapT, Scalar, TypeId, fields, scalar};

impl Compiler<'_> {
    /// `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` as the API server's OpenAPI has it.
    pub(super) fn object_meta(&mut self) -> TypeId {
        if let Some(t) = self.object_meta {
            return t;
        }
        let unknown = self.global_preserve.then_some(DEDUCED);
        let sc = &mut *self.schema;
        let string = sc.push(scalar(Scalar::String));
        let numeric = sc.push(scalar(Scalar::Numeric));
        let boolean = sc.push(scalar(Scalar::Boolean));
        // metav1.Time is a string of format date-time.
        let time = sc.push(scalar(Scalar::Untyped));
        let string_map = sc.push(Atom {
            map: Some(MapT {
                elem: Some(string),
                ..MapT::default()
            }),
            ..Atom::default()
        });
        // +listType=set
        let finalizers = sc.push(Atom {
            list: Some(List {
                elem: Some(string),
                associative: true,
                keys: Vec::new(),
            }),
            ..Atom::default()
        });
        // +structType=atomic
        let owner_reference = sc.push(Atom {
            map: Some(MapT {
                fields: fields(&[
                    ("apiVersion", string),
                    ("blockOwnerDeletion", boolean),
                    ("controller", boolean),
                    ("kind", string),
                    ("name", string),
                    ("uid", string),
                ]),
                elem: unknown,
                atomic: true,
            }),
            ..Atom::default()
        });
        // +listType=map +listMapKey=uid
        let owner_references = sc.push(Atom {
            list: Some(List {
                elem: Some(owner_reference),
                associative: true,
                keys: vec!["uid".to_owned()],
            }),
            ..Atom::default()
        });
        // FieldsV1 is a free-form object.
        let fields_v1 = sc.push(Atom {
            map: Some(MapT {
                elem: Some(DEDUCED),
                ..MapT::default()
            }),
            ..Atom::default()
        });
        let entry = sc.push(Atom {
            map: Some(MapT {
                fields: fields(&[
                    ("apiVersion", string),
                    ("fieldsType", string),
                    ("fieldsV1", fields_v1),
                    ("manager", string),
                    ("operation", string),
                    ("subresource", string),
                    ("time", time),
                ]),
                elem: unknown,
                atomic: false,
            }),
            ..Atom::default()
        });
        // +listType=atomic
        let managed_fields = sc.push(Atom {
            list: Some(List {
                elem: Some(entry),
                associative: false,
                keys: Vec::new(),
            }),
            ..Atom::default()
        });
        let meta = sc.push(Atom {
            map: Some(MapT {
                fields: fields(&[
                    ("annotations", string_map),
                    ("creationTimestamp", time),
                    ("deletionGracePeriodSeconds", numeric),
                    ("deletionTimestamp", time),
                    ("finalizers", finalizers),
                    ("generateName", string),
                    ("generation", numeric),
                    ("labels", string_map),
                    ("managedFields", managed_fields),
                    ("name", string),
                    ("namespace", string),
                    ("ownerReferences", owner_references),
                    ("resourceVersion", string),
                    ("selfLink", string),
                    ("uid", string),
                ]),
                elem: unknown,
                atomic: false,
            }),
            ..Atom::default()
        });
        self.object_meta = Some(meta);
        meta
    }
}
