// The GObjectCore module.
