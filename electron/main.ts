// placeholder: written in the foundation step
