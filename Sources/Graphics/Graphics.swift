// The Graphics module.
