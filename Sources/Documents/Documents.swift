// The Documents module.
