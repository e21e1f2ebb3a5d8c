// The BillfoldCore module.
