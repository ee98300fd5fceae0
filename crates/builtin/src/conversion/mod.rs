//! Conversions between the versions of a built-in kind that kube-apiserver serves from one
//! storage version: `autoscaling/v1` HorizontalPodAutoscalers, stored as `autoscaling/v2`
//! ([`autoscaling`]).

pub mod autoscaling;
